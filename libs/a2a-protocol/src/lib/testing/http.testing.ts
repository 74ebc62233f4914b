import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';

/** A root module served on loopback, on a port of its own, as the agents serve theirs. */
export async function serveModule(root: DynamicModule | (new () => unknown)): Promise<{ app: NestFastifyApplication; url: string }> {
  const app = await NestFactory.create<NestFastifyApplication>(root, new FastifyAdapter(), { logger: false });
  await app.listen(0, '127.0.0.1');
  return { app, url: await app.getUrl() };
}

/** The JSON-RPC body of a `message/send` carrying `text`. */
export function sendMessageBody(text: string) {
  return {
    id: 1,
    jsonrpc: '2.0',
    method: 'message/send',
    params: { message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text }] } },
  };
}

/** The parts of a raw SSE body: the data of each event (parsed JSON) and the comment lines. */
interface SseBody {
  events: unknown[];
  comments: string[];
}

export function parseSseBody(body: string): SseBody {
  const events: unknown[] = [];
  const comments: string[] = [];
  for (const block of body.split('\n\n')) {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice('data:'.length).trim());
    comments.push(...block.split('\n').filter((line) => line.startsWith(':')));
    if (data.length > 0) events.push(JSON.parse(data.join('\n')));
  }
  return { events, comments };
}

/** JSON read loosely, for assertions that reach deep into an answer. */
export interface LooseJson {
  [key: string]: LooseJson;
}

export async function readJson(response: Response): Promise<LooseJson> {
  return (await response.json()) as LooseJson;
}

/** What came back for a raw POST: the status, and the body as JSON (null when it is not JSON). */
export interface RawAnswer {
  status: number;
  body: LooseJson | null;
}

/**
 * POSTs a body as it is, with node:http: a Buffer with its Content-Length, a stream chunked. Unlike
 * fetch, it reads an answer that comes before the whole body is sent (a body refused for its size),
 * and then stops sending, as a client that reads early answers does.
 */
export function postRaw(url: string, body: Buffer | Readable, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sized = Buffer.isBuffer(body) ? { 'content-length': String(body.length) } : {};
    let answered = false;
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', ...sized, ...headers } }, (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        if (!request.writableFinished) request.destroy();
        resolve({ status: response.statusCode ?? 0, body: parseJson(Buffer.concat(chunks).toString('utf8')) });
      });
    });
    request.on('error', (error) => (answered ? undefined : reject(error)));
    if (Buffer.isBuffer(body)) request.end(body);
    else body.on('error', reject).pipe(request);
  });
}

/** A stream of `bytes` bytes of JSON-ish filler, made as it is read, so that the sender holds none of it. */
export function fillerStream(bytes: number, chunkBytes = 64 * 1024): Readable {
  const chunk = Buffer.alloc(chunkBytes, 'a');
  let left = bytes;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const size = Math.min(left, chunkBytes);
      left -= size;
      this.push(size === chunkBytes ? chunk : chunk.subarray(0, size));
    },
  });
}

function parseJson(text: string): LooseJson | null {
  try {
    return JSON.parse(text) as LooseJson;
  } catch {
    return null;
  }
}
