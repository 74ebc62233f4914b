import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { A2A_SERVER_SETTINGS, type A2aServerSettings } from './a2a-server.tokens';
import { withVersionHeader } from './a2a-version';
import { JsonRpcDispatcher } from './json-rpc.dispatcher';
import { writeSse } from './sse-writer';

/** Answers a JSON-RPC call on Fastify: a JSON reply, or an SSE stream with heartbeats. An `A2A-Version` query parameter stands for the header. */
@Injectable()
export class JsonRpcResponder {
  constructor(
    private readonly dispatcher: JsonRpcDispatcher,
    @Inject(A2A_SERVER_SETTINGS) private readonly settings: A2aServerSettings,
  ) {}

  async respond(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const outcome = await this.dispatcher.dispatch(request.body, withVersionHeader(request.headers, request.query));
    if (outcome.kind === 'reply') {
      await reply.status(outcome.status).headers(outcome.headers).send(outcome.body);
      return;
    }
    // The stream is written to the socket directly; Fastify must not send a reply of its own.
    reply.hijack();
    const { events, headers, errorEvent, pace } = outcome;
    await writeSse(reply.raw, events, { heartbeatMs: this.settings.heartbeatMs, headers, errorEvent, pace });
  }
}
