import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compareRecords, RecordError } from '@arvo-rca/run-record';
import { RecordCatalog, SCAN_REUSE_MS, type OpenRecord } from './record-catalog';
import type { RunDirectories } from './run-directories';
import { summarize, taskRows } from './run-summary';
import { loadStaticFiles, type StaticFile } from './static-files';
import { TaskFiles } from './task-files';
import type { ApiError, Comparison, PairedView } from './viewer-api';
import { ViewerError } from './viewer-error';

export interface ViewerServerOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** How long one scan of a record answers for it; 0 reads it for every request. */
  scanReuseMs?: number;
}

interface Reply {
  status: number;
  type: string;
  body: Buffer | string;
}

// The most runs one comparison shows side by side.
const MAX_COMPARED = 8;
const HEADERS = {
  'Content-Security-Policy': "default-src 'self'; img-src 'self' data:",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * The viewer over HTTP, read-only: the page's files, and a JSON API that names records by key and tasks by
 * their key in the record, never by path.
 *
 *   GET /api/runs                              every record: RunList
 *   GET /api/compare?runs=<key>,<key>          records side by side, and two of them paired: Comparison
 *   GET /api/runs/<key>/tasks/<task>           a task's page: TaskPage
 *   GET /api/runs/<key>/tasks/<task>/trajectory    TrajectoryView
 *   GET /api/runs/<key>/tasks/<task>/log           TaskLog
 */
export class ViewerServer {
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(dirs: RunDirectories, staticFolder: string, options: ViewerServerOptions = {}): Promise<ViewerServer> {
    const { host = '127.0.0.1', port = 0, scanReuseMs = SCAN_REUSE_MS } = options;
    const routes = new ViewerRoutes(new RecordCatalog(dirs, scanReuseMs), new TaskFiles(dirs), await loadStaticFiles(staticFolder));
    const server = createServer((request, response) => void routes.handle(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
    const address = server.address() as AddressInfo;
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return new ViewerServer(server, `http://${shown}:${address.port}/`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

class ViewerRoutes {
  constructor(
    private readonly catalog: RecordCatalog,
    private readonly files: TaskFiles,
    private readonly page: Map<string, StaticFile>,
  ) {}

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let reply: Reply;
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD')
        throw new ViewerError('METHOD_NOT_ALLOWED', 'the viewer is read-only: it answers GET and HEAD');
      reply = await this.route(new URL(request.url ?? '/', 'http://viewer'));
    } catch (error) {
      reply = errorReply(error);
    }
    response.writeHead(reply.status, { ...HEADERS, 'Content-Type': reply.type, 'Content-Length': Buffer.byteLength(reply.body), 'Cache-Control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : reply.body);
  }

  private async route(url: URL): Promise<Reply> {
    const file = this.page.get(url.pathname);
    if (file) return { status: 200, type: file.type, body: file.body };
    const parts = url.pathname.split('/').slice(1).map(decodeSegment);
    if (parts[0] !== 'api') throw new ViewerError('NOT_FOUND', `there is no page ${url.pathname}`);
    const [, resource, key, tasks, task, part, ...rest] = parts;
    if (resource === 'runs' && parts.length === 2) return json(await this.catalog.list());
    if (resource === 'compare' && parts.length === 2) return json(await this.compare(url.searchParams.get('runs') ?? ''));
    if (resource === 'runs' && key && tasks === 'tasks' && task && rest.length === 0) {
      const record = await this.catalog.open(key);
      if (part === undefined) return json(await this.files.page(record, task));
      if (part === 'trajectory') return json(await this.files.trajectory(record, task));
      if (part === 'log') return json(await this.files.log(record, task));
    }
    throw new ViewerError('NOT_FOUND', `there is no API resource ${url.pathname}`);
  }

  private async compare(list: string): Promise<Comparison> {
    const keys = list.split(',').filter((key) => key !== '');
    if (keys.length === 0 || keys.length > MAX_COMPARED) throw new ViewerError('BAD_REQUEST', `compare 1 to ${MAX_COMPARED} runs: ?runs=<key>,<key>`);
    const records = await Promise.all(keys.map((key) => this.catalog.open(key)));
    return {
      runs: records.map((record) => ({ summary: summarize(record), tasks: taskRows(record) })),
      paired: records.length === 2 ? paired(records[0], records[1]) : null,
    };
  }
}

/** Run A against run B, or why they cannot be compared (scored under other settings). */
function paired(a: OpenRecord, b: OpenRecord): PairedView {
  try {
    return { kind: 'compared', ...compareRecords(a.scan, b.scan) };
  } catch (error) {
    if (error instanceof RecordError && error.code === 'SETTINGS_DIFFER') return { kind: 'refused', reason: error.message };
    throw error;
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ViewerError('BAD_REQUEST', `${segment} is not a well-formed path segment`);
  }
}

function json(value: unknown): Reply {
  return { status: 200, type: 'application/json; charset=utf-8', body: JSON.stringify(value) };
}

function errorReply(error: unknown): Reply {
  const known = error instanceof ViewerError ? error : new ViewerError('INTERNAL', `the viewer failed: ${(error as Error).message}`);
  if (known.code === 'INTERNAL') console.error(error);
  const body: ApiError = { error: known.code, message: known.message };
  return { status: known.status, type: 'application/json; charset=utf-8', body: JSON.stringify(body) };
}
