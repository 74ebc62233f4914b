import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { ROOT } from '../processes/agent-processes';

const SCRIPT = join(ROOT, 'tools', 'engines', 'tls-engine.sh');

/**
 * A second Docker engine for a suite: a dockerd of its own on a loopback TCP port with TLS, made and
 * removed by tools/engines/tls-engine.sh (its own data, certificates, no bridge), loaded with `images`
 * from the main engine (none: an engine as new as a new machine's). With `outbound`, its containers reach
 * the network, as an image build's apt-get needs. `env` is what points an agent or a client at it.
 */
export class TlsEngine {
  private constructor(
    private readonly state: string,
    readonly env: { DOCKER_HOST: string; DOCKER_TLS_VERIFY: string; DOCKER_CERT_PATH: string },
  ) {}

  static async up(images: readonly string[], options: { outbound?: boolean } = {}): Promise<TlsEngine> {
    const state = mkdtempSync(join(tmpdir(), 'arvo-rca-tls-'));
    try {
      await run(['up', state], { IMAGES: images.join(' '), OUTBOUND: options.outbound ? '1' : '' });
    } catch (error) {
      await run(['down', state]).catch(() => undefined);
      rmSync(state, { recursive: true, force: true });
      throw error;
    }
    const vars = Object.fromEntries(
      readFileSync(join(state, 'env'), 'utf8')
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    return new TlsEngine(state, { DOCKER_HOST: vars['DOCKER_HOST'], DOCKER_TLS_VERIFY: vars['DOCKER_TLS_VERIFY'], DOCKER_CERT_PATH: vars['DOCKER_CERT_PATH'] });
  }

  /** A client of this engine, over TLS with the generated client certificate. */
  client(): Docker {
    const url = new URL(this.env.DOCKER_HOST.replace(/^tcp:/, 'https:'));
    const cert = (name: string): Buffer => readFileSync(join(this.env.DOCKER_CERT_PATH, name));
    return new Docker({ protocol: 'https', host: url.hostname, port: Number(url.port), ca: cert('ca.pem'), cert: cert('cert.pem'), key: cert('key.pem') });
  }

  /** The engine's process: a test pauses it (SIGSTOP) to play an engine that stops answering. */
  get pid(): number {
    return Number(readFileSync(join(this.state, 'dockerd.pid'), 'utf8').trim());
  }

  pause(): void {
    process.kill(this.pid, 'SIGSTOP');
  }

  resume(): void {
    process.kill(this.pid, 'SIGCONT');
  }

  /** Stops it by its pid (resuming it first, should it be paused) and removes its data. */
  async down(): Promise<void> {
    try {
      await run(['down', this.state]);
    } finally {
      rmSync(this.state, { recursive: true, force: true });
    }
  }
}

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const child = spawn('bash', [SCRIPT, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`tls-engine.sh ${args[0]} exited with ${code}:\n${output}`))));
  });
}
