import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { ROOT } from './agent-processes';

export type ServiceName = 'green-agent' | 'purple-agent';

/** The deploy images of a tag, built by tools/deploy/build-images.sh (which skips unchanged ones). */
export function buildDeployImages(tag: string): { green: string; purple: string } {
  const run = spawnSync('bash', [join(ROOT, 'tools', 'deploy', 'build-images.sh')], {
    cwd: ROOT,
    env: { ...process.env, IMAGE_TAG: tag },
    encoding: 'utf8',
    timeout: 15 * 60_000,
  });
  if (run.status !== 0) throw new Error(`building the deploy images failed:\n${run.stdout}\n${run.stderr}`);
  return { green: `arvo-rca/green-agent:${tag}`, purple: `arvo-rca/purple-agent:${tag}` };
}

/** `docker compose` when the plugin answers, else `docker-compose` (tools/docker-compose.sh installs one). */
function composeCommand(): string[] {
  if (spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0) return ['docker', 'compose'];
  if (spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0) return ['docker-compose'];
  throw new Error('neither `docker compose` nor `docker-compose` answers: run tools/docker-compose.sh');
}

export interface ComposeSettings {
  greenImage: string;
  purpleImage: string;
  greenPort: number;
  purplePort: number;
  /** Extra variables for the agents, e.g. MODEL. */
  env?: Record<string, string>;
  /** The `arvo-rca.owner` label of the two agent containers (every container a test makes carries one). */
  owner: string;
}

/**
 * The repository's docker-compose.yml brought up as one uniquely named project, with its own ports
 * and logs volume.
 */
export class ComposeStack {
  readonly project = `arvo-rca-deploy-${process.pid}-${Date.now().toString(36)}`;
  private readonly scratch = mkdtempSync(join(tmpdir(), 'arvo-rca-deploy-'));
  readonly greenUrl: string;
  readonly purpleUrl: string;
  private readonly docker = new Docker();
  private readonly command = composeCommand();
  private readonly env: NodeJS.ProcessEnv;
  private readonly overrides = join(this.scratch, 'docker-compose.test.yml');
  private readonly envFile = join(this.scratch, 'empty.env');

  constructor(settings: ComposeSettings) {
    this.greenUrl = `http://127.0.0.1:${settings.greenPort}/`;
    this.purpleUrl = `http://127.0.0.1:${settings.purplePort}/`;
    // Only what compose needs: no model keys of the caller's shell reach the purple agent.
    const inherited = Object.fromEntries(
      ['PATH', 'HOME', 'DOCKER_HOST', 'DOCKER_CONFIG'].flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
    );
    this.env = {
      ...inherited,
      COMPOSE_PROJECT_NAME: this.project,
      GREEN_IMAGE: settings.greenImage,
      PURPLE_IMAGE: settings.purpleImage,
      GREEN_PORT: String(settings.greenPort),
      GREEN_CARD_URL: this.greenUrl,
      PURPLE_PORT: String(settings.purplePort),
      PURPLE_CARD_URL: this.purpleUrl,
      ...settings.env,
    };
    const labels = `    labels:\n      arvo-rca.owner: ${JSON.stringify(settings.owner)}\n`;
    writeFileSync(this.envFile, '');
    writeFileSync(this.overrides, `services:\n  green-agent:\n${labels}  purple-agent:\n${labels}`);
  }

  compose(...args: string[]): string {
    const [program, ...prefix] = this.command;
    // No .env: a developer's settings (a model key, say) must not reach the stack under test.
    const files = ['--project-directory', ROOT, '-f', join(ROOT, 'docker-compose.yml'), '-f', this.overrides, '--env-file', this.envFile];
    const run = spawnSync(program, [...prefix, ...files, ...args], {
      cwd: ROOT,
      env: this.env,
      encoding: 'utf8',
      timeout: 180_000,
    });
    if (run.status !== 0) throw new Error(`${this.command.join(' ')} ${args.join(' ')} failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
    return run.stdout;
  }

  up(): void {
    this.compose('up', '-d', '--no-build');
  }

  /** Stops and removes the project, its network and its volume; idempotent. */
  down(): void {
    this.compose('down', '--volumes', '--timeout', '30');
  }

  containerId(service: ServiceName): string {
    const id = this.compose('ps', '-q', service).trim();
    if (!id) throw new Error(`service ${service} of ${this.project} has no container`);
    return id;
  }

  async health(service: ServiceName): Promise<string> {
    const info = await this.docker.getContainer(this.containerId(service)).inspect();
    return info.State.Health?.Status ?? 'none';
  }

  /** Waits until every service reports `healthy`; the logs go into the error otherwise. */
  async waitHealthy(services: ServiceName[], timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const states = await Promise.all(services.map((service) => this.health(service)));
      if (states.every((state) => state === 'healthy')) return;
      if (Date.now() > deadline) {
        throw new Error(`not healthy within ${timeoutMs} ms: ${services.map((s, i) => `${s}=${states[i]}`).join(', ')}\n${this.compose('logs', '--no-color')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  /** Runs a command in a service's container and returns its standard output. */
  exec(service: ServiceName, command: string): string {
    const run = spawnSync('docker', ['exec', this.containerId(service), 'sh', '-c', command], { encoding: 'utf8', timeout: 30_000 });
    if (run.status !== 0) throw new Error(`docker exec in ${service} failed (${run.status}): ${run.stderr}`);
    return run.stdout;
  }

  /** The real, effective, saved and file-system ids of the agent's process, as /proc reports them. */
  agentIdentity(service: ServiceName): { uid: number[]; gid: number[]; groups: number[] } {
    const status = this.exec(
      service,
      'for p in /proc/[0-9]*; do if tr "\\0" " " <"$p/cmdline" | grep -q "/app/main.js"; then cat "$p/status"; break; fi; done',
    );
    const ids = (field: string): number[] => (new RegExp(`^${field}:\\s*(.*)$`, 'm').exec(status)?.[1] ?? '').trim().split(/\s+/).filter(Boolean).map(Number);
    return { uid: ids('Uid'), gid: ids('Gid'), groups: ids('Groups') };
  }

  /** The hostname of a service's container: the host part of the owner label of its task containers. */
  async hostname(service: ServiceName): Promise<string> {
    return (await this.docker.getContainer(this.containerId(service)).inspect()).Config.Hostname;
  }

  /** Removes the task directory and the compose override file. */
  removeFiles(): void {
    rmSync(this.scratch, { recursive: true, force: true });
  }
}
