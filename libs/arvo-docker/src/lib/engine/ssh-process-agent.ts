import { Agent, type AgentOptions, type ClientRequest } from 'node:http';
import type { Duplex } from 'node:stream';
import type { SshSettings } from './engine-settings';
import { type SshDial, SshStdioSocket } from './ssh-stdio-socket';

// An idle connection is an ssh process on each side; one not reused this long goes.
const IDLE_MS = 30_000;

/**
 * HTTP to a Docker engine over ssh, as `DOCKER_HOST=ssh://user@host` asks: each HTTP connection is an
 * `ssh` process running `docker system dial-stdio` on the engine's machine (SshStdioSocket), kept alive
 * between calls for a while, since a new one costs an ssh handshake and a remote `docker` process.
 * `destroy()` ends every one of them, those handed over to an exec or attach stream too.
 */
export class SshProcessAgent extends Agent {
  private readonly open = new Set<SshStdioSocket>();
  private readonly idle = new Map<Duplex, NodeJS.Timeout>();

  constructor(
    private readonly dial: SshDial,
    options: AgentOptions = {},
  ) {
    super({ ...options, keepAlive: true });
  }

  /** The ids of the ssh processes running now, one per open connection. */
  get processes(): number[] {
    return [...this.open].flatMap((socket) => (socket.pid === undefined ? [] : [socket.pid]));
  }

  override createConnection(): Duplex {
    const socket = new SshStdioSocket(this.dial);
    this.open.add(socket);
    socket.once('close', () => {
      this.open.delete(socket);
      this.wake(socket);
    });
    return socket;
  }

  override keepSocketAlive(socket: Duplex): boolean {
    // Node's answers whether it keeps the socket (false past a `Keep-Alive: timeout`); its typings say void.
    const kept = super.keepSocketAlive(socket) as unknown as boolean;
    if (kept) this.idle.set(socket, setTimeout(() => socket.destroy(), IDLE_MS).unref());
    return kept;
  }

  override reuseSocket(socket: Duplex, request: ClientRequest): void {
    this.wake(socket);
    super.reuseSocket(socket, request);
  }

  override destroy(): void {
    super.destroy();
    for (const socket of this.open) socket.destroy();
  }

  private wake(socket: Duplex): void {
    clearTimeout(this.idle.get(socket));
    this.idle.delete(socket);
  }
}

/** How to run ssh for the engine `ssh://[user@]host[:port]` names: `docker system dial-stdio` there, never a prompt. */
export function sshDial(url: URL, settings: SshSettings = {}): SshDial {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const args = ['-o', 'BatchMode=yes', '-o', 'ConnectTimeout=30', '-T', '-x', '-a'];
  if (url.username) args.push('-l', decodeURIComponent(url.username));
  if (url.port) args.push('-p', url.port);
  if (settings.identityFile) args.push('-i', settings.identityFile);
  if (settings.knownHostsFile) args.push('-o', `UserKnownHostsFile=${settings.knownHostsFile}`);
  args.push('--', host, 'docker', 'system', 'dial-stdio');
  // Unset, ssh inherits this process's environment, as any child does.
  const env = settings.authSocket ? { ...process.env, SSH_AUTH_SOCK: settings.authSocket } : undefined;
  return { command: settings.command ?? 'ssh', args, env, host: url.host };
}
