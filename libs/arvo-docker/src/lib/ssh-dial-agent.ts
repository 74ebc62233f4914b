import { Agent, type AgentOptions, type ClientRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Client, type ConnectConfig } from 'ssh2';

type ConnectionCallback = (error: Error | null, stream?: Duplex) => void;

interface SshConnection {
  client: Client;
  sock: Socket;
}

/**
 * HTTP to a Docker engine over ssh, as `DOCKER_HOST=ssh://user@host` asks: each HTTP connection is a
 * channel running `docker system dial-stdio` on the engine's machine, all of them on one ssh connection,
 * opened at first use and again after it drops, and kept alive between calls. dockerode's own ssh
 * transport makes a new ssh connection and a new remote `docker` process for every engine call (about a
 * second each on a loaded machine). While no call is under way the connection holds no process open.
 */
export class SshDialAgent extends Agent {
  private connection: Promise<SshConnection> | undefined;
  private readonly busy = new Set<Duplex>();
  private pending = 0;

  constructor(
    private readonly config: ConnectConfig,
    options: AgentOptions = {},
  ) {
    super(options);
    this.on('free', (channel: Duplex) => this.settle(channel));
  }

  override createConnection(_options: unknown, callback: ConnectionCallback): undefined {
    this.pending++;
    const opened = this.connected().then(
      ({ client }) =>
        new Promise<Duplex>((resolve, reject) => client.exec('docker system dial-stdio', (error, channel) => (error ? reject(error) : resolve(channel)))),
    );
    opened
      .then((opened) => {
        const channel = socketLike(opened);
        this.use(channel);
        channel.once('close', () => this.settle(channel));
        callback(null, channel);
      })
      .catch((error: Error) => callback(error))
      .finally(() => {
        this.pending--;
        this.refresh();
      });
    return undefined;
  }

  override reuseSocket(channel: Duplex, request: ClientRequest): void {
    super.reuseSocket(channel as Socket, request);
    this.use(channel);
  }

  override destroy(): void {
    super.destroy();
    void this.connection?.then(
      ({ client }) => client.end(),
      () => undefined,
    );
    this.connection = undefined;
  }

  private use(channel: Duplex): void {
    this.busy.add(channel);
    this.refresh();
  }

  private settle(channel: Duplex): void {
    this.busy.delete(channel);
    this.refresh();
  }

  /** The ssh socket keeps the process alive only while a call is under way. */
  private refresh(): void {
    const active = this.pending > 0 || this.busy.size > 0;
    void this.connection?.then(
      ({ sock }) => (active ? sock.ref() : sock.unref()),
      () => undefined,
    );
  }

  private connected(): Promise<SshConnection> {
    this.connection ??= new Promise<SshConnection>((resolve, reject) => {
      const client = new Client();
      const sock = connect({ host: this.config.host ?? 'localhost', port: this.config.port ?? 22 });
      const forget = (): void => {
        this.connection = undefined;
      };
      client
        .once('ready', () => resolve({ client, sock }))
        .once('error', (error) => {
          forget();
          reject(error);
        })
        .once('close', forget)
        .connect({ ...this.config, sock });
    });
    return this.connection;
  }
}

/**
 * A channel with the socket methods the HTTP agent calls on connections it keeps alive, as no-ops: the
 * keepalive, timeouts and references that matter belong to the ssh connection under it.
 */
function socketLike(channel: Duplex): Duplex {
  const noop = (): Duplex => channel;
  return Object.assign(channel, { ref: noop, unref: noop, setKeepAlive: noop, setNoDelay: noop, setTimeout: noop });
}

/** The ssh connection `ssh://user@host:port` names, authenticated by the ssh agent at `SSH_AUTH_SOCK`. */
export function sshConfig(url: URL, env: NodeJS.ProcessEnv): ConnectConfig {
  return { host: url.hostname, port: Number(url.port || 22), username: decodeURIComponent(url.username) || env['USER'] || 'root', agent: env['SSH_AUTH_SOCK'] };
}
