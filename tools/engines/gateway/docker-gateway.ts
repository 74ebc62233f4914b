import { appendFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createReferences, type Reference } from './create-references';
import { EngineUpstream } from './engine-upstream';
import { routeOf, versionPrefix, type Resource, type Route } from './gateway-policy';
import { isOwnedBy, labelCreateBody, PolicyViolation, scopeQuery, type Owner } from './owner-labels';

/** A call the gateway refused: what a product on AgentBeats would have seen fail with 403. */
export interface RefusedCall {
  at: string;
  method: string;
  path: string;
  reason: string;
}

/** A refusal added by a test on top of the policy (`DELETE /containers/` refuses container removal, say). */
export interface ExtraRefusal {
  method: string;
  /** The path without its API version must start with this. */
  pathPrefix: string;
}

export interface GatewayOptions {
  engineSocket: string;
  owner: Owner;
  /** JSON lines, one per refused call, appended as they happen. */
  refusedLog?: string;
  extraRefusals?: ExtraRefusal[];
  /** Say each refusal on stderr too (the command line's log). */
  echo?: boolean;
}

/** A request the policy lets through: where it goes, its rewritten body, and who looks at the answer. */
interface Admitted {
  path: string;
  body?: Buffer;
  onAnswer?: (status: number, answer: Buffer) => void;
}

/** Answers a caller gets from the policy instead of the engine. */
class Refusal {
  constructor(
    readonly status: number,
    readonly message: string,
    readonly body?: Buffer,
  ) {}
}

/**
 * A stand-in for AgentBeats' Docker gateway: an HTTP proxy in front of the real engine enforcing the
 * gateway's documented default-deny policy for one caller. Not the gateway itself.
 */
export class DockerGatewayStandIn {
  readonly refused: RefusedCall[] = [];
  private readonly engine: EngineUpstream;
  private readonly execs = new Map<string, string>();
  private readonly created = new Set<string>();
  private readonly server: Server;

  constructor(private readonly options: GatewayOptions) {
    this.engine = new EngineUpstream(options.engineSocket);
    this.server = createServer((incoming, response) => void this.serve(incoming, response));
    this.server.on('upgrade', (incoming: IncomingMessage, socket: Socket, head: Buffer) => void this.serveUpgrade(incoming, socket, head));
    // Archive uploads and long attaches are legitimate: no request deadline.
    this.server.requestTimeout = 0;
  }

  listen(target: { path: string } | { port: number; host: string }): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(target, () => resolve());
    });
  }

  get port(): number | undefined {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : undefined;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async serve(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const { path, body, onAnswer } = await this.admit(incoming);
      this.engine.forward(incoming, response, path, body, onAnswer);
    } catch (error) {
      const refusal = this.refusalOf(incoming, error);
      incoming.resume();
      if (response.headersSent) return void response.destroy();
      response.writeHead(refusal.status, { 'Content-Type': 'application/json' }).end(refusal.body ?? JSON.stringify({ message: refusal.message }));
    }
  }

  private async serveUpgrade(incoming: IncomingMessage, socket: Socket, head: Buffer): Promise<void> {
    try {
      await this.admit(incoming, true);
      this.engine.tunnel(incoming, socket, head);
    } catch (error) {
      const refusal = this.refusalOf(incoming, error);
      const body = refusal.body ?? Buffer.from(JSON.stringify({ message: refusal.message }));
      socket.end(
        `HTTP/1.1 ${refusal.status} Refused\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.toString()}`,
      );
    }
  }

  /** The path (and, for a create, the body) to forward; throws a Refusal or PolicyViolation otherwise. */
  private async admit(incoming: IncomingMessage, upgrade = false): Promise<Admitted> {
    const url = new URL(incoming.url ?? '/', 'http://docker');
    const method = incoming.method ?? 'GET';
    const extra = this.extraRefusal(method, url.pathname);
    const route: Route = extra
      ? { kind: 'refuse', reason: `refused by the stand-in's test setting (${extra.method} ${extra.pathPrefix})` }
      : routeOf(method, url.pathname, url.searchParams);
    const prefix = versionPrefix(url.pathname);
    const original = `${url.pathname}${url.search}`;
    switch (route.kind) {
      case 'forward':
        return { path: original };
      case 'scoped-list':
        return { path: `${url.pathname}?${scopeQuery(url.searchParams, this.options.owner).toString()}` };
      case 'create': {
        const body = await this.labelledCreate(incoming, route.resource, prefix, upgrade);
        return { path: original, body, onAnswer: route.resource === 'containers' ? this.remember((id) => this.created.add(id)) : undefined };
      }
      case 'exec-create': {
        await this.authorize(prefix, { resource: 'containers', id: route.container });
        const container = route.container;
        return { path: original, onAnswer: this.remember((id) => this.execs.set(id, container)) };
      }
      case 'exec':
        await this.authorize(prefix, { resource: 'containers', id: await this.containerOfExec(prefix, route.exec) });
        return { path: original };
      case 'owned':
        await this.authorize(prefix, { resource: route.resource, id: route.id });
        return { path: original };
      case 'refuse':
        throw new PolicyViolation(403, route.reason);
    }
  }

  private async labelledCreate(incoming: IncomingMessage, resource: Resource, prefix: string, upgrade: boolean): Promise<Buffer> {
    if (upgrade) throw new PolicyViolation(400, 'a create cannot be an upgrade');
    const labelled = labelCreateBody(await readBody(incoming), this.options.owner);
    if (resource === 'containers') {
      for (const reference of createReferences(JSON.parse(labelled.toString('utf8')))) await this.authorize(prefix, reference);
    }
    return labelled;
  }

  /** What to do with the id a successful create answers with. */
  private remember(keep: (id: string) => void): (status: number, answer: Buffer) => void {
    return (status, answer) => {
      if (status !== 201) return;
      try {
        const id = (JSON.parse(answer.toString('utf8')) as { Id?: unknown }).Id;
        if (typeof id === 'string') keep(id);
      } catch {
        // Not the engine's JSON: nothing to remember, and the caller gets the answer as it came.
      }
    };
  }

  /**
   * The caller must own the resource: a container it saw created, or one labelled as the caller's (made
   * through it before it restarted, or named rather than given by id). One the engine does not know gets
   * the engine's own answer (404).
   */
  private async authorize(prefix: string, reference: Reference): Promise<void> {
    if (reference.resource === 'containers' && this.created.has(reference.id)) return;
    const path = reference.resource === 'containers' ? `${prefix}/containers/${reference.id}/json` : `${prefix}/${reference.resource}/${reference.id}`;
    const answer = await this.engine.call('GET', path);
    if (answer.status !== 200) throw new Refusal(answer.status, 'engine answer', answer.body);
    const inspected = JSON.parse(answer.body.toString('utf8')) as {
      Config?: { Labels?: Record<string, string> | null };
      Labels?: Record<string, string> | null;
    };
    const labels = reference.resource === 'containers' ? inspected.Config?.Labels : inspected.Labels;
    if (!isOwnedBy(labels, this.options.owner)) throw new PolicyViolation(403, `not authorized for this ${reference.resource.slice(0, -1)}`);
  }

  private async containerOfExec(prefix: string, exec: string): Promise<string> {
    const known = this.execs.get(exec);
    if (known) return known;
    const answer = await this.engine.call('GET', `${prefix}/exec/${exec}/json`);
    if (answer.status !== 200) throw new Refusal(answer.status, 'engine answer', answer.body);
    const container = (JSON.parse(answer.body.toString('utf8')) as { ContainerID: string }).ContainerID;
    this.execs.set(exec, container);
    return container;
  }

  private extraRefusal(method: string, path: string): ExtraRefusal | undefined {
    const bare = path.replace(/^\/v\d+\.\d+/, '');
    return this.options.extraRefusals?.find((rule) => rule.method === method && bare.startsWith(rule.pathPrefix));
  }

  private refusalOf(incoming: IncomingMessage, error: unknown): Refusal {
    if (error instanceof Refusal) return error;
    const status = error instanceof PolicyViolation ? error.status : 502;
    const message = error instanceof Error ? error.message : String(error);
    if (status === 403) this.record({ at: new Date().toISOString(), method: incoming.method ?? '', path: incoming.url ?? '', reason: message });
    return new Refusal(status, message);
  }

  private record(call: RefusedCall): void {
    this.refused.push(call);
    if (this.options.echo) process.stderr.write(`docker gateway stand-in: refused ${call.method} ${call.path}: ${call.reason}\n`);
    if (this.options.refusedLog) appendFileSync(this.options.refusedLog, `${JSON.stringify(call)}\n`);
  }
}

async function readBody(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
