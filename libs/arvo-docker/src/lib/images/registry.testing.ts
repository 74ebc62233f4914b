import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ProcessTable } from '@arvo-rca/common';
import { currentOwner, formatOwnerId, ownerHost, ownerIsAlive, parseOwnerId } from '@arvo-rca/sandbox';
import { createDockerClient } from '../engine/docker-engine';

const run = promisify(execFile);
const REGISTRY_BINARY = '/usr/bin/docker-registry';
/** The label of every image pushGeneratedImage makes, and so of every copy of it an engine pulls: the owner id of the process that made it. */
const TEST_IMAGE_OWNER = 'arvo-rca.test-image-owner';
const owner = formatOwnerId(currentOwner(new ProcessTable()));

/**
 * A real registry (Debian's `docker-registry`, distribution 2.8) on a free loopback port, with its own
 * storage and config in a temp folder. The engine trusts 127.0.0.0/8 without TLS by default. `stop` ends
 * it and removes its storage; so does the test process's exit, should a suite never reach its afterAll.
 */
export class TestRegistry {
  private readonly onExit = (): void => this.kill();

  private constructor(
    /** `127.0.0.1:<port>`, the prefix of the images it holds. */
    readonly address: string,
    private readonly process: ChildProcess,
    private readonly storage: string,
  ) {
    globalThis.process.once('exit', this.onExit);
  }

  static async start(): Promise<TestRegistry> {
    await sweepTestImages();
    const storage = mkdtempSync(join(tmpdir(), 'arvo-registry-'));
    const address = `127.0.0.1:${await freePort()}`;
    const config = join(storage, 'config.yml');
    writeFileSync(
      config,
      [
        'version: 0.1',
        'log: { level: error }',
        `storage: { filesystem: { rootdirectory: ${join(storage, 'data')} }, delete: { enabled: true } }`,
        `http: { addr: ${address} }`,
        '',
      ].join('\n'),
    );
    const child = spawn(REGISTRY_BINARY, ['serve', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    const registry = new TestRegistry(address, child, storage);
    try {
      await registry.waitUntilAnswering();
    } catch (error) {
      await registry.stop();
      throw error;
    }
    return registry;
  }

  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) =>
      this.process.exitCode !== null || this.process.signalCode !== null ? resolve() : this.process.once('exit', () => resolve()),
    );
    this.kill();
    await exited;
    globalThis.process.off('exit', this.onExit);
  }

  private kill(): void {
    this.process.kill('SIGKILL');
    rmSync(this.storage, { recursive: true, force: true });
  }

  private async waitUntilAnswering(): Promise<void> {
    let stderr = '';
    this.process.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    for (const started = Date.now(); Date.now() - started < 15_000; await new Promise((resolve) => setTimeout(resolve, 100))) {
      if (this.process.exitCode !== null) throw new Error(`${REGISTRY_BINARY} exited with ${this.process.exitCode}: ${stderr}`);
      const answer = await fetch(`http://${this.address}/v2/`).catch(() => undefined);
      if (answer?.ok) return;
    }
    throw new Error(`${REGISTRY_BINARY} did not answer /v2/ on ${this.address} within 15 s: ${stderr}`);
  }
}

/**
 * A TCP proxy in front of `target` that sends what the target answers at `bytesPerSecond` in total over
 * all its connections (one token bucket), so that a pull through it takes a known time. It keeps the
 * request line of every HTTP request it relays (`GET /v2/<name>/manifests/<tag>`), so that a test can
 * count the pulls an engine made through it.
 */
export class ThrottledProxy {
  private readonly sockets = new Set<Socket>();
  private nextFree = 0;
  /** `<method> <path>` of each request relayed, in order. */
  readonly requests: string[] = [];

  private constructor(
    private readonly server: Server,
    /** `127.0.0.1:<port>`: images pulled as `<address>/<name>` come from the target through the throttle. */
    readonly address: string,
  ) {}

  static async start(target: string, bytesPerSecond: number): Promise<ThrottledProxy> {
    const [host, port] = target.split(':');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new ThrottledProxy(server, `127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('connection', (client: Socket) => proxy.relay(client, connect(Number(port), host), bytesPerSecond));
    return proxy;
  }

  /** The pulls of `name` (`<repository>:<tag>`) the engine began through it: each asks for the tag's manifest once (HEAD, or GET). */
  pullsOf(name: string): number {
    const [repository, tag] = name.split(':');
    return this.requests.filter((request) => /^(HEAD|GET) /.test(request) && request.endsWith(` /v2/${repository}/manifests/${tag}`)).length;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: Socket, upstream: Socket, bytesPerSecond: number): void {
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => (socket === client ? upstream : client).destroy());
    }
    client.pipe(upstream);
    this.readRequests(client);
    // The client's end follows the last chunk still held back.
    let waiting = 0;
    let ended = false;
    upstream.on('end', () => {
      ended = true;
      if (waiting === 0) client.end();
    });
    upstream.on('data', (chunk: Buffer) => {
      // Each chunk goes when the bucket has its bytes: the shared clock moves on by its length's time.
      const now = Date.now();
      const at = Math.max(now, this.nextFree);
      this.nextFree = at + (chunk.length / bytesPerSecond) * 1000;
      upstream.pause();
      waiting += 1;
      setTimeout(() => {
        waiting -= 1;
        if (!client.destroyed) client.write(chunk);
        if (ended && waiting === 0) client.end();
        upstream.resume();
      }, at - now);
    });
  }

  // Pulls send no bodies: every line the client sends is a request line or a header.
  private readRequests(client: Socket): void {
    let partial = '';
    client.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('latin1')).split('\r\n');
      partial = (lines.pop() ?? '').slice(-8192);
      for (const line of lines) {
        const request = /^(GET|HEAD|POST|PUT|PATCH|DELETE) (\S+) HTTP\/1\.[01]$/.exec(line);
        if (request) this.requests.push(`${request[1]} ${request[2]}`);
      }
    });
  }
}

/**
 * Builds `FROM base` plus one layer of `megabytes` MiB of random data with the engine, pushes it to the
 * registry as `<registry>/<name>`, and removes the built image from the engine again: only the registry
 * holds it. Returns the repository path (`<name>`), to be pulled through any address of the registry.
 */
export async function pushGeneratedImage(registry: string, name: string, megabytes: number, base: string): Promise<string> {
  const context = mkdtempSync(join(tmpdir(), 'arvo-image-'));
  const tag = `${registry}/${name}`;
  try {
    writeFileSync(join(context, 'Dockerfile'), `FROM ${base}\nRUN head -c ${megabytes}M /dev/urandom > /payload.bin\nLABEL ${TEST_IMAGE_OWNER}="${owner}"\n`);
    // No cache: each image has a payload of its own. Built at once, two images of a size shared the first one's
    // RUN layer from the engine's cache (a pull then found it there), and one's removal took it from under another's build.
    await run('docker', ['build', '-q', '--no-cache', '-t', tag, context], { maxBuffer: 1024 * 1024 });
    await run('docker', ['push', '-q', tag], { maxBuffer: 1024 * 1024 });
    return name;
  } finally {
    await run('docker', ['rmi', '-f', tag]).catch(() => undefined);
    rmSync(context, { recursive: true, force: true });
  }
}

/**
 * Removes the images made by pushGeneratedImage, and the engine's pulled copies of them, whose maker has
 * ended on this host: a suite or a bench killed before its afterAll or its finally leaves them behind. An
 * image without the label, or made on another host, or by a process still running, is left alone. Runs
 * at each registry's start, so that the next run of any such suite clears what a crashed one left.
 */
export async function sweepTestImages(): Promise<void> {
  const docker = createDockerClient();
  const processes = new ProcessTable();
  const images = await docker.listImages({ filters: { label: [TEST_IMAGE_OWNER] } });
  const gone = images.filter((image) => {
    const maker = parseOwnerId(image.Labels?.[TEST_IMAGE_OWNER] ?? '');
    return maker !== undefined && maker.host === ownerHost() && !ownerIsAlive(maker, processes);
  });
  for (const image of gone)
    await docker
      .getImage(image.Id)
      .remove({ force: true })
      .catch(() => undefined);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
