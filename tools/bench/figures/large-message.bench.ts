/* eslint-disable @nx/enforce-module-boundaries -- the server glue is measured in-process, beneath the module that hides it. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { A2A_VERSION_HEADER, AgentCard } from '@a2a-js/sdk';
import { DefaultRequestHandler } from '@a2a-js/sdk/server';
import {
  A2aClientFactory,
  AGENT_CARD_PATH,
  buildAgentCard,
  createHttpFetch,
  isLegacyVersion,
  PRODUCT_VERSION,
  toLegacyAgentCard,
  type A2aPeer,
} from '@arvo-rca/a2a-protocol';
import { EchoExecutor, freePort } from '@arvo-rca/a2a-protocol/testing';
import { BoundedTaskStore } from '../../../libs/a2a-protocol/src/lib/server/task-store/bounded-task-store';
import { JsonRpcDispatcher } from '../../../libs/a2a-protocol/src/lib/server/json-rpc.dispatcher';
import { JsonRpcResponder } from '../../../libs/a2a-protocol/src/lib/server/json-rpc.responder';
import { elapsedMs, median, round } from '../report/bench-stats';

export interface LargeMessageFigures {
  megabytes: number;
  runs: number;
  /** One message/send and one message/stream of the message to an echo agent, each answered with it. */
  a2a_ms: number;
  /** The same bytes each way as plain JSON over loopback: a node:http server, JSON.parse and JSON.stringify. */
  json_loopback_ms: number;
  a2a_vs_json: number;
  /** Copies of the message in each answer: the task's history and its statuses carry it (send, stream). */
  copies_back: [number, number];
}

const MEGABYTES = 3;
const RUNS = 7;
// A send's answer carries the message four times (its task's history and statuses), over the 8 MiB
// default bound on a reply: the clients here read up to the bench's own.
const MAX_REPLY_BYTES = 16 * MEGABYTES * 1024 * 1024;

/**
 * The A2A glue of both agents (Fastify's JSON parser, the dispatcher, the SDK's request handler, the
 * task store, the SSE writer, the peer client) carrying a 3 MiB message both ways, against the floor
 * of the same bytes as plain JSON over loopback. The glue is mounted on Fastify as A2aModule mounts
 * it, without Nest's routing: this runner compiles without the decorator metadata Nest's injection reads.
 */
export async function measureLargeMessage(): Promise<LargeMessageFigures> {
  const text = `execute: ${'x'.repeat(MEGABYTES * 1024 * 1024)}`;
  const agent = await startEchoAgent();
  const plain = await startJsonEcho();
  try {
    const peer = new A2aClientFactory({ maxBodyBytes: MAX_REPLY_BYTES }).peer(agent.url);
    const copies = await copiesBack(agent.url, text);
    const fetchJson = createHttpFetch({ maxBodyBytes: MAX_REPLY_BYTES });
    const a2a: number[] = [];
    const json: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      a2a.push(await timed(() => sendAndStream(peer, text, `large-${run}`)));
      json.push(
        await timed(async () => {
          for (const count of copies) await postJson(fetchJson, `${plain.url}${count}`, text);
        }),
      );
    }
    return {
      megabytes: MEGABYTES,
      runs: RUNS,
      a2a_ms: round(median(a2a), 1),
      json_loopback_ms: round(median(json), 1),
      a2a_vs_json: round(median(a2a) / median(json)),
      copies_back: copies,
    };
  } finally {
    await agent.close();
    await new Promise((resolve) => plain.server.close(resolve));
  }
}

async function sendAndStream(peer: A2aPeer, text: string, contextId: string): Promise<void> {
  const deadline = { deadlineMs: 60_000 };
  const answer = await peer.sendText(contextId, text, deadline);
  let last = '';
  for await (const event of peer.streamText(contextId, text, deadline)) last = 'text' in event ? event.text : last;
  if (answer !== `echo: ${text}` || last !== answer) throw new Error('the echo agent answered something else than the message');
}

async function timed(work: () => Promise<void>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return elapsedMs(started);
}

/** How many copies of the message come back from a send and from a stream, counted once, untimed. */
async function copiesBack(url: string, text: string): Promise<[number, number]> {
  const bytes: number[] = [];
  const base = createHttpFetch({ maxBodyBytes: MAX_REPLY_BYTES });
  const counting: typeof fetch = async (input, init) => {
    const response = await base(input, init);
    if (init?.method === 'POST') bytes.push((await response.clone().arrayBuffer()).byteLength);
    return response;
  };
  await sendAndStream(new A2aClientFactory({ fetch: counting }).peer(url), text, 'large-count');
  const [send, stream] = bytes.map((count) => Math.round(count / Buffer.byteLength(text)));
  return [send, stream];
}

async function postJson(fetchJson: typeof fetch, url: string, text: string): Promise<void> {
  const response = await fetchJson(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'echo', params: { text } }),
  });
  await response.json();
}

interface EchoAgent {
  url: string;
  close: () => Promise<void>;
}

async function startEchoAgent(): Promise<EchoAgent> {
  const adapter = new FastifyAdapter({ bodyLimit: 8 * 1024 * 1024 });
  const app = adapter.getInstance();
  // The card names the port, so one is reserved before the routes are added.
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const card = buildAgentCard({
    name: 'echo agent',
    description: 'answers what it is told',
    version: PRODUCT_VERSION,
    url,
    skills: [{ id: 'echo', name: 'Echo', description: 'echoes', tags: ['bench'], examples: ['hello'] }],
  });
  const handler = new DefaultRequestHandler(card, new BoundedTaskStore(), new EchoExecutor());
  const responder = new JsonRpcResponder(new JsonRpcDispatcher(handler), { token: undefined, heartbeatMs: 10_000, maxBodyBytes: 8 * 1024 * 1024 });
  // As the card controller answers: v0.3 unless the caller asks for 1.0.
  app.get(AGENT_CARD_PATH, async (request) => {
    const version = request.headers[A2A_VERSION_HEADER.toLowerCase()];
    return isLegacyVersion(typeof version === 'string' ? version : undefined) ? toLegacyAgentCard(card, { embedV1Interfaces: true }) : AgentCard.toJSON(card);
  });
  app.post('/', (request, reply) => responder.respond(request, reply));
  await app.listen({ port, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

/** Answers `POST /<n>` with n copies of the request's text, as JSON. */
async function startJsonEcho(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { params } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { params: { text: string } };
      const copies = Array.from({ length: Number(request.url?.slice(1)) }, () => params.text);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { copies } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}
