import Docker from 'dockerode';
import { existsSync, readFileSync } from 'node:fs';
import type { Agent as HttpAgent } from 'node:http';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Duplex, Readable } from 'node:stream';
import { DEFAULT_SANDBOX_OPTIONS, type SandboxOptions } from '@arvo-rca/sandbox';
import type { ContainerCreateSpec, ContainerHandle, ContainerSummary, PullEvent } from './container-handle';
import { countChanges } from './container-changes';
import { engineAgent, shownByName } from './engine-agent';
import { createEngineGate, type EngineGate, type EngineWork } from './engine-gate';
import { engineSettingsFromEnvironment, type EngineSettings } from './engine-settings';
import { onceDiskWalkIsFree } from './engine-busy';
import { EngineWatch } from './engine-watch';
import { SshProcessAgent, sshDial } from './ssh-process-agent';

/** Where an engine keeps containers' layers; `local` when it is reached by a socket of this host. */
export interface EngineStorage {
  dataRoot: string;
  driver: string;
  backingFilesystem: string | undefined;
  local: boolean;
}

/** How many containers start or go at once on one engine (see EngineGate). */
type EnginePacing = Pick<SandboxOptions, 'startConcurrency' | 'startPacing'>;

/**
 * The Docker engine (unix socket, tcp with TLS, or ssh, as its settings say): the one place that speaks
 * its API. Work that loads it (starts, removals, restarts) goes through its gate, and a wait on it can
 * be watched, so that an engine that stops answering fails the wait at once.
 */
export class DockerEngine {
  /** Where its calls go: `unix:///path`, `tcp://host:port` or `ssh://host:port`. */
  readonly address: string;
  private readonly docker: Docker;
  private readonly gate: EngineGate;
  private readonly agent: HttpAgent;
  /** One ping for all the operations that wait on it. */
  private readonly watch = new EngineWatch(this);

  constructor(settings: EngineSettings = {}, pacing: EnginePacing = DEFAULT_SANDBOX_OPTIONS) {
    const { options, address } = clientOptions(settings);
    this.docker = new Docker(options);
    this.agent = options.agent;
    this.address = address;
    this.gate = createEngineGate(pacing.startConcurrency, { fixed: pacing.startPacing === 'fixed' });
  }

  /** The engine the environment names (DOCKER_HOST and friends); for tools and tests. */
  static fromEnvironment(env: NodeJS.ProcessEnv = process.env, pacing?: EnginePacing): DockerEngine {
    return new DockerEngine(engineSettingsFromEnvironment(env), pacing);
  }

  /** Ends its connections: over ssh, their ssh processes (each also ends when its connection does). */
  close(): void {
    this.agent.destroy();
  }

  /** The ssh processes of its connections now; none for other engines. */
  get sshProcesses(): number[] {
    return this.agent instanceof SshProcessAgent ? this.agent.processes : [];
  }

  /** Whether it answers a ping within the deadline; never throws. */
  async answers(timeoutMs = 3000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([this.docker.ping().then(() => true), deadline]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs `work` when the gate lets it: a few at a time, `start`s teaching the gate the engine's pace. */
  paced<T>(work: () => Promise<T>, kind?: EngineWork): Promise<T> {
    return this.gate(work, kind);
  }

  /** `work`, failed with ENGINE_UNAVAILABLE (saying it was `what`) once the engine stops answering meanwhile. */
  watched<T>(what: string, work: Promise<T>): Promise<T> {
    return this.watch.whileAnswers(what, work);
  }

  async createContainer(spec: ContainerCreateSpec): Promise<ContainerHandle> {
    return containerHandle(await this.docker.createContainer(spec));
  }

  container(id: string): ContainerHandle {
    return containerHandle(this.docker.getContainer(id));
  }

  /** Every container, running or not, with all of `labels` (`key` or `key=value`). */
  async listContainers(labels: string[]): Promise<ContainerSummary[]> {
    const found = await this.docker.listContainers({ all: true, filters: { label: labels } });
    return found.map((info) => ({ id: info.Id, name: info.Names[0]?.replace(/^\//, '') ?? info.Id, labels: info.Labels }));
  }

  /** Where the engine keeps containers' layers, and on what (its info's `DockerRootDir`, `Driver` and `Backing Filesystem`). */
  async storage(): Promise<EngineStorage> {
    const info = (await this.docker.info()) as { DockerRootDir?: string; Driver?: string; DriverStatus?: [string, string][] };
    const backing = info.DriverStatus?.find(([key]) => key === 'Backing Filesystem')?.[1];
    return { dataRoot: info.DockerRootDir ?? '', driver: info.Driver ?? 'unknown', backingFilesystem: backing, local: this.address.startsWith('unix://') };
  }

  /** Resolves when the image is there; the engine's 404 when it is not. */
  async inspectImage(image: string): Promise<void> {
    await this.docker.getImage(image).inspect();
  }

  /** The image's size on the engine's disk, all its layers counted; the engine's 404 when it is not there. */
  async imageSize(image: string): Promise<number> {
    return (await this.docker.getImage(image).inspect()).Size;
  }

  /** Removes the image (its tag; its layers once no other image holds them); the engine's 403 where it refuses. */
  async removeImage(image: string): Promise<void> {
    await this.docker.getImage(image).remove();
  }

  /** The engine's own account of its images' disk (`/system/df`): every image's tags and size, and all layers' bytes. */
  async imageDiskUsage(): Promise<{ layersBytes: number; images: { tags: string[]; bytes: number }[] }> {
    const answer = await onceDiskWalkIsFree(() => this.docker.df());
    const usage = answer as { LayersSize?: number; Images?: { RepoTags?: string[] | null; Size: number }[] };
    return { layersBytes: usage.LayersSize ?? 0, images: (usage.Images ?? []).map((info) => ({ tags: info.RepoTags ?? [], bytes: info.Size })) };
  }

  /** Pulls an image, telling each line of its progress; aborting `signal` makes the engine cancel it. */
  async pullImage(image: string, signal: AbortSignal, onEvent: (event: PullEvent) => void): Promise<void> {
    const stream: NodeJS.ReadableStream = await this.docker.pull(image, { abortSignal: signal });
    await new Promise<void>((resolve, reject) => {
      this.docker.modem.followProgress(stream, (error: Error | null) => (error ? reject(error) : resolve()), onEvent);
    });
  }
}

/** A client of the engine the environment names; for tools and tests that drive the engine as a fixture. */
export function createDockerClient(env: NodeJS.ProcessEnv = process.env): Docker {
  return new Docker(clientOptions(engineSettingsFromEnvironment(env)).options);
}

// The client's options from the settings alone. Every key the modem would otherwise take from the
// environment is given, so that the environment never overrides what the configuration says. Each
// engine has its own agent (the modem passes `agent` on to every request; its typings leave it out),
// which keeps a connection for the next call: not Node's global one, whose keep-alive is a default of
// the Node version, shared with whatever else the process calls. Each shows as its name when inspected
// (see shownByName).
function clientOptions(settings: EngineSettings): { options: Docker.DockerOptions & { agent: HttpAgent }; address: string } {
  const none = { socketPath: undefined, host: undefined, port: undefined, protocol: undefined, ca: undefined, cert: undefined, key: undefined };
  const host = settings.host ?? `unix://${localSocket()}`;
  if (host.startsWith('unix://')) {
    const socketPath = host.slice('unix://'.length) || localSocket();
    return { options: { ...none, socketPath, agent: engineAgent('http') }, address: `unix://${socketPath}` };
  }
  const url = new URL(host.includes('//') ? host : `tcp://${host}`);
  if (url.protocol === 'ssh:') {
    const port = Number(url.port || 22);
    // Not the modem's own ssh transport: ssh2 decrypts in this process, and its garbage broke the output's memory bound.
    const agent = shownByName(new SshProcessAgent(sshDial(url, settings.ssh)), 'ssh engine agent');
    return { options: { ...none, protocol: 'http', host: url.hostname, port, agent }, address: `ssh://${url.hostname}:${port}` };
  }
  const tls = settings.tlsVerify === true || url.port === '2376';
  const certificates = settings.certPath ? certificatesIn(settings.certPath) : {};
  return {
    options: {
      ...none,
      protocol: tls ? 'https' : 'http',
      host: url.hostname,
      port: url.port,
      ...certificates,
      agent: engineAgent(tls ? 'https' : 'http'),
    },
    address: `tcp://${url.hostname}${url.port ? `:${url.port}` : ''}`,
  };
}

function certificatesIn(folder: string): { ca: Buffer; cert: Buffer; key: Buffer } {
  return { ca: readFileSync(join(folder, 'ca.pem')), cert: readFileSync(join(folder, 'cert.pem')), key: readFileSync(join(folder, 'key.pem')) };
}

// The Docker CLI's default: the user's own engine (Docker Desktop) when it has one, else the system's.
function localSocket(): string {
  const own = join(homedir(), '.docker', 'run', 'docker.sock');
  return existsSync(own) ? own : '/var/run/docker.sock';
}

function containerHandle(container: Docker.Container): ContainerHandle {
  return {
    id: container.id,
    start: async () => {
      await container.start();
    },
    stop: async () => {
      await container.stop({ t: 0 });
    },
    attach: async () => (await container.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true })) as Duplex,
    exec: async (request) => {
      const exec = await container.exec({
        Cmd: request.cmd,
        Env: request.env,
        WorkingDir: request.workingDir,
        AttachStdin: request.stdin,
        AttachStdout: true,
        AttachStderr: true,
        Tty: false,
      });
      const stream = await exec.start({ hijack: true, stdin: request.stdin });
      return { stream, state: () => exec.inspect().then((info) => ({ running: info.Running, exitCode: info.ExitCode ?? undefined })) };
    },
    state: () => container.inspect().then((info) => ({ running: info.State.Running, exitCode: info.State.ExitCode })),
    writtenBytes: () => {
      // `size=1` asks for SizeRw; the typings know no such option.
      const options: Docker.ContainerInspectOptions & { size: boolean } = { size: true };
      return container.inspect(options).then((info: Docker.ContainerInspectInfo & { SizeRw?: number }) => info.SizeRw);
    },
    layerDir: () =>
      container.inspect().then((info) => {
        // The typings know only devicemapper's keys; overlay2 (and podman's overlay) name the upper dir.
        const driver = info.GraphDriver as { Name?: string; Data?: Record<string, string> | null } | undefined;
        return driver?.Name?.startsWith('overlay') ? driver.Data?.['UpperDir'] : undefined;
      }),
    changeCount: () => countChanges(container),
    readArchive: async (path) => (await container.getArchive({ path })) as Readable,
    writeArchive: async (tar, path, signal) => {
      await container.putArchive(tar as NodeJS.ReadableStream, { path, ...(signal ? { abortSignal: signal } : {}) });
    },
    remove: async () => {
      await container.remove({ force: true, v: true });
    },
  };
}
