import { Controller, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BearerTokenGuard } from './bearer-token.guard';
import { JsonRpcResponder } from './json-rpc.responder';

/** The agent's A2A JSON-RPC endpoint, for v0.3 and v1.0 callers alike. */
@Controller()
@UseGuards(BearerTokenGuard)
export class JsonRpcController {
  constructor(private readonly responder: JsonRpcResponder) {}

  @Post()
  handle(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.responder.respond(request, reply);
  }
}
