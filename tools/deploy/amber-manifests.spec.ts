/* eslint-disable @nx/enforce-module-boundaries -- the default assessment_config is held to the green agent's own request parser, the one judge of it. */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import JSON5 from 'json5';
import { parseAssessmentRequest } from '../../apps/green-agent/src/app/assessments/request/assessment-request';
import { taskSources } from '../../apps/green-agent/src/app/task-assets/task-assets.options';
import { TaskSourceRegistry } from '../../apps/green-agent/src/app/task-assets/task-source';
import { TaskLists } from '@arvo-rca/task-lists';

// The Amber manifests of both agents and the example leaderboard scenario, held to what AgentBeats'
// gateway needs, to the rules of Amber's manifest format that a mistake here would break, and to the
// images and Dockerfiles that the deploy builds.

const ROOT = join(__dirname, '..', '..');
const APPS = ['green-agent', 'purple-agent'] as const;
// The bundle in both images (COPY dist/apps/<app> into /app).
const AGENT = '/app/main.js';
type App = (typeof APPS)[number];

interface Manifest {
  manifest_version: string;
  experimental_features?: string[];
  config_schema?: { type: string; properties: Record<string, { type: string; secret?: boolean }>; required?: string[]; additionalProperties?: boolean };
  slots?: Record<string, { kind: string; optional?: boolean }>;
  program: {
    image: string;
    entrypoint: string;
    env?: Record<string, string | { when: string; value: string }>;
    mounts?: { path: string; from: string }[];
    network: { endpoints: { name: string; port: number }[] };
  };
  provides: Record<string, { kind: string; endpoint: string }>;
  exports: Record<string, string>;
  metadata?: { assessment_config: Record<string, unknown>; participant_roles: string[] };
}

interface Scenario {
  experimental_features: string[];
  config_schema: NonNullable<Manifest['config_schema']>;
  components: Record<string, string | { manifest: string; config?: Record<string, unknown> }>;
  bindings: { to: string; from: string; weak?: boolean }[];
  exports: Record<string, string>;
}

const readJson5 = <T>(path: string): T => JSON5.parse(readFileSync(join(ROOT, path), 'utf8')) as T;
const manifestOf = (app: App): Manifest => readJson5<Manifest>(`apps/${app}/amber-manifest.json5`);
const scenario = readJson5<Scenario>('amber-scenario.json5');

/** tools/deploy/images.env: the one place the images are named, as bash reads it, with its defaults (no IMAGE_* from this environment). */
function imagesEnv(): Record<string, string> {
  const print = 'source tools/deploy/images.env && for name in GREEN_IMAGE PURPLE_IMAGE IMAGE_PLATFORM; do echo "$name=${!name}"; done';
  const result = spawnSync('bash', ['-c', print], { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '' }, encoding: 'utf8' });
  return Object.fromEntries([...result.stdout.matchAll(/^([A-Z_]+)=(.*)$/gm)].map((match) => [match[1], match[2]]));
}

/** What an image runs and listens on, from its Dockerfile: ENTRYPOINT and CMD (JSON form), EXPOSE, the healthcheck's port. */
function dockerfileOf(app: App): { entrypoint: string[]; cmd: string[]; exposed: number; healthcheckPort: string } {
  const text = readFileSync(join(ROOT, 'apps', app, 'Dockerfile'), 'utf8');
  const json = (instruction: string): string[] => JSON.parse(new RegExp(`^${instruction} (\\[.*\\])$`, 'm').exec(text)?.[1] ?? '[]') as string[];
  return { entrypoint: json('ENTRYPOINT'), cmd: json('CMD'), exposed: Number(/^EXPOSE (\d+)$/m.exec(text)?.[1]), healthcheckPort: json('  CMD').at(-1) ?? '' };
}

/** Amber splits a string entrypoint with shell rules; ours hold no quotes, so words are whitespace-separated. */
function words(entrypoint: string): string[] {
  expect(entrypoint).not.toMatch(/["'\\$]/);
  return entrypoint.trim().split(/\s+/);
}

function flagValue(argv: string[], flag: string): string | undefined {
  const at = argv.indexOf(flag);
  return at < 0 ? undefined : argv[at + 1];
}

/** Every `${config.x}` and `${slots.x...}` a program refers to, `when` conditions included. */
function references(manifest: Manifest): { config: string[]; slots: string[] } {
  const texts = [
    manifest.program.entrypoint,
    ...Object.values(manifest.program.env ?? {}).flatMap((value) => (typeof value === 'string' ? [value] : [value.value, `\${${value.when}}`])),
  ];
  const named = (scope: string): string[] =>
    texts.flatMap((text) => [...text.matchAll(new RegExp(`\\$\\{${scope}\\.([a-z0-9_]+)`, 'g'))].map((match) => match[1]));
  return { config: named('config'), slots: named('slots') };
}

function semver(version: string): [number, number, number] {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (!match) throw new Error(`manifest_version ${version} is not a version`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

describe.each(APPS)('the Amber manifest of the %s', (app) => {
  const manifest = manifestOf(app);

  it('keeps to the manifest format: a known version and features, config names Amber accepts, provides and exports on declared endpoints', () => {
    const [major, minor] = semver(manifest.manifest_version);
    // 0.2.0 is where `when` entries in program.env begin; 1.0 is past what Amber accepts.
    expect(major === 0 && minor >= 2).toBe(true);
    for (const feature of manifest.experimental_features ?? []) expect(['docker', 'kvm']).toContain(feature);
    expect(manifest.config_schema?.type).toBe('object');
    for (const name of Object.keys(manifest.config_schema?.properties ?? {})) expect(name).toMatch(/^(?!.*__)[a-z][a-z0-9_]*$/);
    const endpoints = manifest.program.network.endpoints.map((endpoint) => endpoint.name);
    for (const provide of Object.values(manifest.provides)) expect(endpoints).toContain(provide.endpoint);
    for (const target of Object.values(manifest.exports)) expect(Object.keys(manifest.provides)).toContain(target.replace(/^provides\./, ''));
  });

  it('refers only to config and slots it declares', () => {
    const { config, slots } = references(manifest);
    for (const name of config) expect(Object.keys(manifest.config_schema?.properties ?? {})).toContain(name);
    for (const name of slots) expect(Object.keys(manifest.slots ?? {})).toContain(name);
  });

  it("runs the agent the image runs, with the image's --host 0.0.0.0 and --port on the port the Dockerfile exposes", () => {
    // Amber replaces the image's ENTRYPOINT: the manifest's entrypoint is the whole command. It runs the
    // bundle directly, as the purple image does (the green image's entrypoint script ends the same way).
    const argv = words(manifest.program.entrypoint);
    const dockerfile = dockerfileOf(app);
    expect(argv).toEqual(['node', AGENT, ...dockerfile.cmd]);
    if (app === 'purple-agent') expect(dockerfile.entrypoint).toEqual(['node', AGENT]);
    else expect(readFileSync(join(ROOT, 'tools', 'deploy', 'green-entrypoint.sh'), 'utf8')).toContain(`agent="${AGENT}"`);
    expect(flagValue(argv, '--host')).toBe('0.0.0.0');
    expect(Number(flagValue(argv, '--port'))).toBe(dockerfile.exposed);
    expect(dockerfile.healthcheckPort).toBe(String(dockerfile.exposed));
  });

  it('serves A2A at an endpoint named a2a on that port, provided and exported as a2a', () => {
    const port = dockerfileOf(app).exposed;
    expect(manifest.program.network.endpoints).toEqual([{ name: 'a2a', port }]);
    expect(manifest.provides).toEqual({ a2a: { kind: 'a2a', endpoint: 'a2a' } });
    expect(manifest.exports).toEqual({ a2a: 'provides.a2a' });
  });

  it('names the image set once in tools/deploy/images.env, with its registry host, so that it never resolves to Docker Hub', () => {
    const ref = imagesEnv()[app === 'green-agent' ? 'GREEN_IMAGE' : 'PURPLE_IMAGE'];
    expect(manifest.program.image).toBe(ref);
    // A first component without a dot or a port is read as a Docker Hub namespace.
    expect(ref).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?\/[a-z0-9._/-]+:[\w.-]+$/);
  });
});

describe('the images the manifests run', () => {
  it('are built for linux/amd64, the platform AgentBeats runs, wherever they are built', () => {
    expect(imagesEnv()['IMAGE_PLATFORM']).toBe('linux/amd64');
    const script = readFileSync(join(ROOT, 'tools', 'deploy', 'build-images.sh'), 'utf8');
    expect(script).toContain(`platform="$(sed -n 's/^IMAGE_PLATFORM=//p' tools/deploy/images.env)"`);
    expect(script).toContain('docker build --platform "$platform"');
    // Built locally as arvo-rca/<app>:<IMAGE_TAG>, which docker-compose.yml runs; publish-images.sh tags latest with the manifests' names.
    expect(script).toContain('image="arvo-rca/$app:$tag"');
    const compose = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
    for (const [variable, app] of [
      ['GREEN_IMAGE', 'green-agent'],
      ['PURPLE_IMAGE', 'purple-agent'],
    ])
      expect(compose).toContain(`image: \${${variable}:-arvo-rca/${app}:latest}`);
  });

  it('are written into both manifests from images.env by publish-images.sh, which refuses a name Docker Hub would resolve', () => {
    const copy = mkdtempSync(join(tmpdir(), 'publish-images-'));
    try {
      for (const path of ['tools/deploy/publish-images.sh', ...APPS.map((app) => `apps/${app}/amber-manifest.json5`)]) {
        mkdirSync(dirname(join(copy, path)), { recursive: true });
        copyFileSync(join(ROOT, path), join(copy, path));
      }
      const publish = (green: string): ReturnType<typeof spawnSync> => {
        const env = `GREEN_IMAGE=${green}\nPURPLE_IMAGE=registry.example:5000/team/purple:v2\nIMAGE_PLATFORM=linux/amd64\n`;
        writeFileSync(join(copy, 'tools/deploy/images.env'), env);
        return spawnSync('bash', [join(copy, 'tools/deploy/publish-images.sh'), '--manifests'], { encoding: 'utf8' });
      };

      expect(publish('ghcr.io/someone/green:v2').status).toBe(0);
      const images = APPS.map((app) => (JSON5.parse(readFileSync(join(copy, 'apps', app, 'amber-manifest.json5'), 'utf8')) as Manifest).program.image);
      expect(images).toEqual(['ghcr.io/someone/green:v2', 'registry.example:5000/team/purple:v2']);

      const refused = publish('someone/green:v2');
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('someone/green:v2 in tools/deploy/images.env is not <registry host>/<path>:<tag>');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('the green agent manifest', () => {
  const green = manifestOf('green-agent');

  it("declares the docker feature and mounts the gateway's Docker socket where the agent looks for it", () => {
    expect(green.experimental_features).toEqual(['docker']);
    expect(green.program.mounts).toEqual([{ path: '/var/run/docker.sock', from: 'framework.docker' }]);
    expect(green.program.env?.['SANDBOX']).toBe('docker');
    expect(green.program.env).not.toHaveProperty('DOCKER_HOST');
  });

  it("keeps the agent's files where its user may write under Amber: under /tmp, not in the image's node-owned directories", () => {
    // Amber drops every capability: the agent runs as the image's root user, who cannot write into directories of `node`.
    for (const variable of ['TMP_DIR', 'CACHE_DIR', 'LOG_DIR']) expect(green.program.env?.[variable]).toMatch(/^\/tmp\/arvo-rca\/[a-z]+$/);
  });

  it('needs no participant URL at boot: the proxy slot is optional and only gives a route to participants', () => {
    expect(green.slots).toEqual({ proxy: { kind: 'a2a', optional: true } });
    expect(green.program.env).not.toHaveProperty('PURPLE_AGENT_URL');
    expect(green.config_schema?.required ?? []).toEqual([]);
  });

  it("names the platform's role, agent, as its participant role and a default assessment_config that makes a valid request: plain, with the shard keys flat beside it as the leaderboard CI writes them, or nested", async () => {
    expect(green.metadata?.participant_roles).toEqual(['agent']);
    const config = green.metadata?.assessment_config ?? {};
    expect(Object.keys(config).sort()).toEqual(['concurrency', 'num_tasks', 'task_ids']);
    expect(await parsed(config)).toMatchObject({ kind: 'request', request: { ignoredConfigKeys: [] } });
    // The gateway sends its assessment_config as `config` unchanged (agentbeats-gateway src/assessment.py, run_assessment).
    const flat = await parsed({ ...config, shard_index: 1, num_shards: 2 });
    expect(flat).toMatchObject({ kind: 'request', request: { shard: { index: 1, count: 2 }, ignoredConfigKeys: [] } });
    const nested = await parsed({ assessment_config: config, shard_index: 1, num_shards: 2 });
    expect(nested).toMatchObject({ kind: 'request', request: { shard: { index: 1, count: 2 }, ignoredConfigKeys: [] } });
    // The leaderboard CI writes its cap flat beside the shard keys: it is read, not ignored.
    const capped = await parsed({ assessment_config: config, num_instances: 1, shard_index: 0, num_shards: 2 });
    expect(capped).toMatchObject({ kind: 'request', request: { tasks: [{ taskId: 'arvo:14368' }], ignoredConfigKeys: [] } });
  });
});

describe('the purple agent manifest', () => {
  const purple = manifestOf('purple-agent');
  const properties = purple.config_schema?.properties ?? {};

  it('takes the model keys as secret config, and the model and base URL as plain config, each into its variable', () => {
    const fromConfig: Record<string, [string, boolean]> = {
      ANTHROPIC_API_KEY: ['anthropic_api_key', true],
      OPENAI_API_KEY: ['openai_api_key', true],
      MODEL: ['model', false],
      OPENAI_BASE_URL: ['openai_base_url', false],
    };
    expect(Object.keys(purple.program.env ?? {}).sort()).toEqual(Object.keys(fromConfig).sort());
    for (const [variable, [name, secret]] of Object.entries(fromConfig)) {
      expect(properties[name]).toMatchObject({ type: 'string' });
      expect(properties[name].secret ?? false).toBe(secret);
      // Unset when not configured, so the agent's own default holds (the baseline without a key).
      expect(purple.program.env?.[variable]).toEqual({ when: `config.${name}`, value: `\${config.${name}}` });
    }
    expect(purple.config_schema).toMatchObject({ additionalProperties: false });
    expect(purple.config_schema?.required ?? []).toEqual([]);
  });

  it('needs no green agent URL: no slot, no variable, no flag', () => {
    expect(purple.slots).toBeUndefined();
    expect(purple.program.env).not.toHaveProperty('GREEN_AGENT_URL');
    expect(purple.program.entrypoint).not.toMatch(/green/i);
    expect(purple.experimental_features ?? []).toEqual([]);
  });
});

describe('the example leaderboard scenario', () => {
  const children: Record<string, Manifest> = { green: manifestOf('green-agent'), purple_agent: manifestOf('purple-agent') };
  const gateway = scenario.components['gateway'] as {
    manifest: string;
    config: { assessment_config: Record<string, unknown>; participant_roles: Record<string, string> };
  };

  it('instantiates our two manifests beside the AgentBeats gateway', () => {
    const manifestPath = (name: string): string => {
      const component = scenario.components[name];
      return typeof component === 'string' ? component : component.manifest;
    };
    expect(manifestPath('green')).toBe('./apps/green-agent/amber-manifest.json5');
    expect(manifestPath('purple_agent')).toBe('./apps/purple-agent/amber-manifest.json5');
    expect(gateway.manifest).toMatch(/^https:\/\/raw\.githubusercontent\.com\/RDI-Foundation\/agentbeats-gateway\/refs\/tags\/v[\d.]+\/amber-manifest\.json5$/);
    // Every feature a child uses must be enabled by its parent.
    for (const manifest of Object.values(children))
      for (const feature of manifest.experimental_features ?? []) expect(scenario.experimental_features).toContain(feature);
  });

  it("binds each agent's a2a export into the gateway, and the gateway's proxy into the green agent's proxy slot", () => {
    expect(scenario.bindings).toEqual([
      { to: '#gateway.green', from: '#green.a2a' },
      { to: '#gateway.purple1', from: '#purple_agent.a2a' },
      { to: '#green.proxy', from: '#gateway.proxy', weak: true },
    ]);
    for (const { to, from } of scenario.bindings) {
      for (const [component, capability] of [to, from].map((ref) => ref.slice(1).split('.'))) {
        const manifest = children[component];
        if (manifest) expect([...Object.keys(manifest.exports), ...Object.keys(manifest.slots ?? {})]).toContain(capability);
      }
    }
    expect(scenario.exports).toEqual({ results: '#gateway.results' });
  });

  it('gives the participant the role the green agent expects, and an assessment_config the green agent accepts', async () => {
    const roles = Object.entries(gateway.config.participant_roles)
      .filter(([slot]) => slot !== 'green')
      .map(([, role]) => role);
    expect(roles).toEqual(children['green'].metadata?.participant_roles);
    expect(await parsed(gateway.config.assessment_config)).toMatchObject({ kind: 'request', request: { ignoredConfigKeys: [] } });
  });

  it('forwards only config the purple agent declares, from root config it declares', () => {
    const purple = scenario.components['purple_agent'] as { config: Record<string, string> };
    for (const [name, value] of Object.entries(purple.config)) {
      expect(Object.keys(children['purple_agent'].config_schema?.properties ?? {})).toContain(name);
      const root = /^\$\{config\.([a-z0-9_]+)\}$/.exec(value)?.[1] ?? '';
      expect(Object.keys(scenario.config_schema.properties)).toContain(root);
      // A key stays secret all the way through.
      expect(scenario.config_schema.properties[root].secret ?? false).toBe(children['purple_agent'].config_schema?.properties[name].secret ?? false);
    }
  });
});

/** The green agent's reading of an assessment request with this config, naming the participant as the gateway does. */
function parsed(config: Record<string, unknown>): ReturnType<typeof parseAssessmentRequest> {
  const taskIds = new TaskSourceRegistry(taskSources({ ARVO_DATA_URL: 'https://arvo.invalid/', SAMPLES_DIR: join(ROOT, 'samples') }));
  const request = { participants: { agent: 'http://127.0.0.1:8080/agent' }, config };
  return parseAssessmentRequest(JSON.stringify(request), [], { taskIds, lists: new TaskLists(join(ROOT, 'task-lists')) });
}
