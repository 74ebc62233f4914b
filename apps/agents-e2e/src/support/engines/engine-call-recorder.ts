import { chmodSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** One call a client made to the engine, as the recorder saw it. */
export interface EngineCall {
  at: number;
  method: string;
  path: string;
}

/**
 * A Docker socket in front of the real engine that records every call made through it and forwards
 * it, except that the engine looks as if it held no image: image inspects answer 404 and image lists
 * are empty. A client booted against it shows what it asks the engine for, and whether it pulls.
 */
export class EngineCallRecorder {
  readonly calls: EngineCall[] = [];
  private readonly server: Server;

  constructor(private readonly engineSocket = '/var/run/docker.sock') {
    this.server = createServer((incoming, response) => this.serve(incoming, response));
    // Hijacked exec and attach are not part of a boot: recorded, then refused.
    this.server.on('upgrade', (incoming: IncomingMessage, socket: Socket) => {
      this.record(incoming);
      socket.end('HTTP/1.1 501 Not Implemented\r\nContent-Length: 0\r\n\r\n');
    });
  }

  /** Listens on a unix socket with these permissions (the engine's own socket has 0660). */
  async listen(path: string, mode = 0o660): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(path, () => resolve());
    });
    chmodSync(path, mode);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Calls in a time window (epoch ms), as `METHOD /path` lines. */
  between(from: number, to: number): string[] {
    return this.calls.filter((call) => call.at >= from && call.at <= to).map((call) => `${call.method} ${call.path}`);
  }

  private serve(incoming: IncomingMessage, response: ServerResponse): void {
    const path = this.record(incoming);
    const route = path.replace(/^\/v[\d.]+/, '').split('?')[0];
    if (incoming.method === 'GET' && /^\/images\/.+\/json$/.test(route)) {
      response.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: `No such image: ${route.slice(8, -5)}` }));
      return;
    }
    if (incoming.method === 'GET' && route === '/images/json') {
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('[]');
      return;
    }
    const outgoing = request({ socketPath: this.engineSocket, method: incoming.method, path, headers: incoming.headers, agent: false }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers);
      answer.pipe(response);
    });
    outgoing.on('error', (error) => (response.headersSent ? response.destroy() : response.writeHead(502).end(error.message)));
    response.on('close', () => outgoing.destroy());
    incoming.pipe(outgoing);
  }

  private record(incoming: IncomingMessage): string {
    const path = incoming.url ?? '/';
    this.calls.push({ at: Date.now(), method: incoming.method ?? 'GET', path });
    return path;
  }
}
