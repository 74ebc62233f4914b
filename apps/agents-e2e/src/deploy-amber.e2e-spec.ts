import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import JSON5 from 'json5';
import { AGENT_CARD_PATH } from '@arvo-rca/a2a-protocol';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { ROOT } from './support/processes/agent-processes';
import { buildDeployImages } from './support/processes/compose-stack';
import { EngineCallRecorder } from './support/engines/engine-call-recorder';

// The deploy images started as their Amber manifests say and as Amber's Docker Compose output runs
// programs: the manifest's entrypoint in place of the image's, its environment, every capability
// dropped and no-new-privileges, the green agent's Docker socket where the manifest mounts it as
// Amber leaves it (created by the image's root user with the default umask: 0755, root's). Each in a
// container of its own, on a network of their own, both at once, as a scenario starts them.

// AgentBeats' gateway polls the agent cards for 30 s in total from its own start, then gives up.
const GATEWAY_CARD_WAIT_MS = 30_000;
// The gateway's card requests time out after 2 s.
const CARD_REQUEST_TIMEOUT_MS = 2_000;
// After the card answers, how long to keep watching the green agent's engine calls for late boot work.
const AFTER_BOOT_WATCH_MS = 5_000;
const LABEL_OWNER = 'arvo-rca.owner';
// The mode of a socket that Amber's helper binds as root under the default umask.
const AMBER_SOCKET_MODE = 0o755;

type App = 'green-agent' | 'purple-agent';

interface Manifest {
  program: {
    image: string;
    entrypoint: string;
    env?: Record<string, string | { when: string; value: string }>;
    mounts?: { path: string; from: string }[];
    network: { endpoints: { name: string; port: number }[] };
  };
}

interface Boot {
  container: Docker.Container;
  startedAt: number;
  cardAt: number;
  card: { name?: string; url?: string };
}

describeWithDocker('deploy: each image started as its Amber manifest says', () => {
  const docker = new Docker();
  const owner = `deploy-amber-e2e-${process.pid}-${randomUUID().slice(0, 8)}`;
  const scratch = mkdtempSync(join(tmpdir(), 'arvo-rca-amber-'));
  const recorder = new EngineCallRecorder();
  const containers: Docker.Container[] = [];
  const boots = new Map<App, Boot>();
  let network: Docker.Network | undefined;

  beforeAll(async () => {
    const images = buildDeployImages('e2e');
    network = await docker.createNetwork({ Name: owner, Labels: { [LABEL_OWNER]: owner } });
    await recorder.listen(join(scratch, 'docker.sock'), AMBER_SOCKET_MODE);
    const [green, purple] = await Promise.all([
      boot('green-agent', images.green, { '/var/run/docker.sock': join(scratch, 'docker.sock') }),
      boot('purple-agent', images.purple, {}),
    ]);
    boots.set('green-agent', green);
    boots.set('purple-agent', purple);
    // Late boot work (a first sweep, a warm-up) would show in the engine calls shortly after.
    await new Promise((resolve) => setTimeout(resolve, AFTER_BOOT_WATCH_MS));
  }, 20 * 60_000);

  afterAll(async () => {
    for (const container of containers) await container.remove({ force: true }).catch(() => undefined);
    await network?.remove().catch(() => undefined);
    await recorder.close();
    rmSync(scratch, { recursive: true, force: true });
  }, 120_000);

  /** Creates and starts the app's container from its manifest; resolves when its card answers, or throws past the gateway's wait. */
  async function boot(app: App, image: string, sockets: Record<string, string>): Promise<Boot> {
    const { program } = manifestOf(app);
    const [endpoint] = program.network.endpoints;
    const hostPort = await freePort();
    const mounts = program.mounts ?? [];
    expect(mounts.map((mount) => mount.path).sort()).toEqual(Object.keys(sockets).sort());
    const container = await docker.createContainer({
      name: `${owner}-${app}`,
      Image: image,
      // Amber runs the manifest's entrypoint instead of the image's, with no command after it.
      Entrypoint: program.entrypoint.trim().split(/\s+/),
      Cmd: [],
      Env: unconditionalEnv(program.env ?? {}),
      Labels: { [LABEL_OWNER]: owner },
      ExposedPorts: { [`${endpoint.port}/tcp`]: {} },
      HostConfig: {
        NetworkMode: owner,
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges:true'],
        Binds: mounts.map((mount) => `${sockets[mount.path]}:${mount.path}`),
        PortBindings: { [`${endpoint.port}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: String(hostPort) }] },
      },
    });
    containers.push(container);
    await container.start();
    const startedAt = Date.parse((await container.inspect()).State.StartedAt);
    const card = await pollCard(`http://127.0.0.1:${hostPort}${AGENT_CARD_PATH}`, startedAt + GATEWAY_CARD_WAIT_MS);
    if (!card) throw new Error(`${app}: no agent card within ${GATEWAY_CARD_WAIT_MS} ms of the container's start; its log:\n${await logsOf(container)}`);
    return { container, startedAt, cardAt: card.at, card: card.body };
  }

  it.each(['green-agent', 'purple-agent'] as const)(
    "answers the %s card within the gateway's 30 s of its container starting, naming a loopback URL on the manifest's port",
    (app) => {
      const boot = booted(app);
      const elapsed = boot.cardAt - boot.startedAt;
      console.info(`${app}: agent card answered ${elapsed} ms after its container started`);
      expect(elapsed).toBeLessThan(GATEWAY_CARD_WAIT_MS);
      // Amber's router rewrites loopback card URLs to the route the caller came through.
      const [endpoint] = manifestOf(app).program.network.endpoints;
      expect(boot.card).toMatchObject({ name: `arvo-rca ${app.replace('-', ' ')}`, url: `http://127.0.0.1:${endpoint.port}/` });
    },
  );

  it('boots the green agent without pulling, building or loading an image, against an engine that shows no image at all', async () => {
    const green = booted('green-agent');
    const calls = recorder.between(green.startedAt - 1_000, green.cardAt + AFTER_BOOT_WATCH_MS);
    // It did use the socket (so the absence below means something) ...
    expect(calls.length).toBeGreaterThan(0);
    // ... and asked for no image: no pull (POST /images/create), build, load or import.
    expect(calls.filter((call) => /^POST \/(v[\d.]+\/)?(images\/create|images\/load|build)\b/.test(call))).toEqual([]);
    expect((await green.container.inspect()).State.Running).toBe(true);
  });

  it('boots the purple agent with no green agent URL and no model key', async () => {
    const env = (await booted('purple-agent').container.inspect()).Config.Env;
    expect(env.filter((entry) => /^(GREEN_AGENT_URL|ANTHROPIC_API_KEY|OPENAI_API_KEY)=/.test(entry))).toEqual([]);
  });

  function booted(app: App): Boot {
    const boot = boots.get(app);
    if (!boot) throw new Error(`${app} did not boot`);
    return boot;
  }
});

function manifestOf(app: App): Manifest {
  return JSON5.parse(readFileSync(join(ROOT, 'apps', app, 'amber-manifest.json5'), 'utf8')) as Manifest;
}

/** The manifest's plain variables; a `when` entry is left out, as Amber leaves it out when its config or slot is absent. */
function unconditionalEnv(env: Record<string, string | { when: string; value: string }>): string[] {
  return Object.entries(env).flatMap(([name, value]) => (typeof value === 'string' ? [`${name}=${value}`] : []));
}

/** Polls the card as the gateway does (one request at a time, each with its own timeout) until it answers or the deadline passes. */
async function pollCard(url: string, deadline: number): Promise<{ at: number; body: { name?: string; url?: string } } | undefined> {
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(CARD_REQUEST_TIMEOUT_MS) });
      if (response.ok) {
        const at = Date.now();
        return { at, body: (await response.json()) as { name?: string; url?: string } };
      }
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

async function logsOf(container: Docker.Container): Promise<string> {
  const buffer = await container.logs({ stdout: true, stderr: true, tail: 50 });
  return buffer.toString('utf8');
}
