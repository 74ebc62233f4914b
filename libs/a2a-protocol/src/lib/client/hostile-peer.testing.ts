import { once } from 'node:events';
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentCard } from '@a2a-js/sdk';
import { AGENT_CARD_PATH, buildAgentCard } from '../agent-card';

const CHUNK_BYTES = 64 * 1024;

/** How a hostile peer answers a JSON-RPC call: its headers, the pieces it pours, and where it stops. */
export interface Answer {
  headers: OutgoingHttpHeaders;
  /** The i-th piece written; made as it goes, so that a body of any size is never held. */
  piece: (index: number) => string;
  /** The bytes after which it stops writing. */
  limitBytes: number;
  /** Whether it ends the body there (else it holds the connection open, sending nothing more). */
  end: boolean;
}

/** What the peer saw of one answer: the bytes it wrote and when its connection closed. */
export interface Pouring {
  bytes: number;
  closed: Promise<number>;
}

/** A JSON-RPC reply whose result is a completed task answering `text`. */
export function completedTask(id: unknown, text: string): string {
  const message = { messageId: 'r', role: 'ROLE_AGENT', parts: [{ text }] };
  return JSON.stringify({ jsonrpc: '2.0', id, result: { task: { id: 't1', contextId: 'ctx', status: { state: 'TASK_STATE_COMPLETED', message } } } });
}

/** Spaces, which JSON reads as nothing: filler of any length. */
export function filler(): string {
  return ' '.repeat(CHUNK_BYTES);
}

/**
 * A peer on 127.0.0.1 that serves a card at `/<mode>/` and answers calls there as `answers[mode]` says,
 * pouring its body with the socket's backpressure until the client stops reading or closes.
 */
export class HostilePeer {
  readonly pourings = new Map<string, Pouring>();
  private server: Server | undefined;
  private base = '';

  constructor(private readonly answers: Record<string, (id: unknown) => Answer>) {}

  async start(): Promise<this> {
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  url(mode: string): string {
    return `${this.base}/${mode}/`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const mode = request.url?.split('/')[1] ?? '';
    if (request.method === 'GET' && request.url === `/${mode}${AGENT_CARD_PATH}`) {
      const card = buildAgentCard({ name: mode, description: 'hostile', version: '0', url: this.url(mode), skills: [] });
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(AgentCard.toJSON(card)));
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const { id } = JSON.parse(Buffer.concat(chunks).toString()) as { id: unknown };
    const answer = this.answers[mode](id);
    const pouring = { bytes: 0, closed: new Promise<number>((resolve) => response.once('close', () => resolve(Date.now()))) };
    this.pourings.set(mode, pouring);
    response.writeHead(200, answer.headers);
    for (let index = 0; pouring.bytes < answer.limitBytes && !response.destroyed; index++) {
      const piece = answer.piece(index);
      pouring.bytes += Buffer.byteLength(piece);
      if (!response.write(piece)) await drainedOrClosed(response);
    }
    if (answer.end && !response.destroyed) response.end();
  }
}

function drainedOrClosed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      response.off('drain', done).off('close', done);
      resolve();
    };
    response.on('drain', done).on('close', done);
  });
}
