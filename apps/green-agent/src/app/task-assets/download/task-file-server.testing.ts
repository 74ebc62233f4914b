import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the server does to the next request for a file, instead of serving it. */
export type Fault = 'status-500' | 'reset' | 'stall' | 'truncate' | 'no-answer';

const BASE_PATH = '/data/arvo/';
const MIRROR_PATH = '/cdn/';

/**
 * A real HTTP server on loopback serving task files under `/data/arvo/<id>/<file>`, as the data set does
 * (optionally through a redirect to a mirror path, as its CDN does), with faults injected on demand.
 */
export class TaskFileServer {
  /** Every request path, in arrival order. */
  readonly requests: string[] = [];
  redirect = false;
  private readonly faults = new Map<string, Fault[]>();
  private readonly trickles = new Map<string, { chunkBytes: number; intervalMs: number }>();

  private constructor(
    private readonly server: Server,
    private readonly files: ReadonlyMap<string, Buffer>,
  ) {}

  /** `files` maps `<id>/<file>` to its bytes. */
  static async start(files: ReadonlyMap<string, Buffer>): Promise<TaskFileServer> {
    const server = createServer();
    const instance = new TaskFileServer(server, files);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => instance.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return instance;
  }

  get baseUrl(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}${BASE_PATH.slice(0, -1)}`;
  }

  /** The next requests for `<id>/<file>` meet these faults, one per request, then the file is served. */
  failNext(file: string, ...faults: Fault[]): void {
    this.faults.set(file, [...(this.faults.get(file) ?? []), ...faults]);
  }

  /** Serves `<id>/<file>` in small chunks with pauses, slowly but never silent for long. */
  trickle(file: string, chunkBytes: number, intervalMs: number): void {
    this.trickles.set(file, { chunkBytes, intervalMs });
  }

  /** How many requests asked for `<id>/<file>` at the data set's path (redirect targets not counted). */
  requestsFor(file: string): number {
    return this.requests.filter((path) => path === `${BASE_PATH}${file}`).length;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = req.url ?? '';
    this.requests.push(path);
    const prefix = [BASE_PATH, MIRROR_PATH].find((candidate) => path.startsWith(candidate));
    const file = prefix ? decodeURIComponent(path.slice(prefix.length)) : '';
    const body = this.files.get(file);
    if (!prefix || !body) {
      res.writeHead(404).end('Entry not found');
      return;
    }
    if (this.redirect && prefix === BASE_PATH) {
      res.writeHead(302, { location: `${MIRROR_PATH}${file}` }).end();
      return;
    }
    const fault = this.faults.get(file)?.shift();
    if (fault) this.misbehave(fault, body, res);
    else this.serve(file, body, res);
  }

  private serve(file: string, body: Buffer, res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
    const trickle = this.trickles.get(file);
    if (!trickle) {
      res.end(body);
      return;
    }
    let offset = 0;
    const timer = setInterval(() => {
      res.write(body.subarray(offset, offset + trickle.chunkBytes));
      offset += trickle.chunkBytes;
      if (offset >= body.length) {
        clearInterval(timer);
        res.end();
      }
    }, trickle.intervalMs);
    res.on('close', () => clearInterval(timer));
  }

  private misbehave(fault: Fault, body: Buffer, res: ServerResponse): void {
    if (fault === 'status-500') {
      res.writeHead(500).end('Internal Server Error');
      return;
    }
    // 'no-answer': the request is read and never answered, not even with headers.
    if (fault === 'no-answer') return;
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
    res.write(body.subarray(0, Math.floor(body.length / 2)));
    const socket = res.socket as Socket;
    // Let the first half reach the client before the connection goes.
    setTimeout(() => {
      if (fault === 'reset') socket.resetAndDestroy();
      if (fault === 'truncate') socket.end();
      // 'stall': say nothing more; the client's idle timeout has to notice.
    }, 50);
  }
}
