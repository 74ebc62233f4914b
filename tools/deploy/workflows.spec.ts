import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import JSON5 from 'json5';

// The GitHub workflows, parsed by GitHub's own parser (workflow-documents.mjs): CI runs .ci/run, and
// the publish workflow pushes, for any repository owner, exactly the image names the Amber manifests name.

const ROOT = join(__dirname, '..', '..');
const APPS = ['green-agent', 'purple-agent'] as const;
const PUBLISH_FILES = ['tools/deploy/publish-images.sh', 'tools/deploy/images.env', ...APPS.map((app) => `apps/${app}/amber-manifest.json5`)];

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Job {
  'runs-on': string;
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  container?: { image: string; options?: string };
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}
interface Parsed {
  file: string;
  errors: string[];
  document: Workflow | null;
}

function parse(...files: string[]): Parsed[] {
  const result = spawnSync(process.execPath, [join(__dirname, 'workflow-documents.mjs'), ...files], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`workflow-documents.mjs failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Parsed[];
}

function workflow(name: string): Workflow {
  const [parsed] = parse(`.github/workflows/${name}`);
  expect(parsed.errors).toEqual([]);
  if (!parsed.document) throw new Error(`${name} has no document`);
  return parsed.document;
}

/** A workflow string with its `${{ }}` expressions replaced from `context`; one it does not know fails the test. */
function evaluate(text: string, context: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expression: string) => {
    if (!(expression in context)) throw new Error(`no value for the expression ${expression}`);
    return context[expression];
  });
}

function evaluateAll(env: Record<string, string> | undefined, context: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env ?? {}).map(([name, value]) => [name, evaluate(String(value), context)]));
}

const manifestImage = (root: string, app: string): string =>
  (JSON5.parse(readFileSync(join(root, 'apps', app, 'amber-manifest.json5'), 'utf8')) as { program: { image: string } }).program.image;

/**
 * The names the publish workflow pushes for a repository owner and tag: each push step's own command, run
 * with the step's environment as the runner would give it, on a copy of the repository, with --manifests
 * for --push (publish-images.sh pushes the name it writes). Returns the names each step wrote, and the
 * manifests the copy is left with.
 */
function published(owner: string, tag: string): { pushed: string[][]; left: string[]; registry: string } {
  const document = workflow('publish.yml');
  const job = document.jobs['images'];
  const github = { 'github.repository_owner': owner, 'github.ref_name': tag, 'github.actor': 'someone', 'secrets.GITHUB_TOKEN': 'token' };
  const workflowEnv = evaluateAll(document.env, github);
  const jobEnv = { ...workflowEnv, ...evaluateAll(job.env, github) };
  const withEnv = { ...github, ...Object.fromEntries(Object.entries(jobEnv).map(([name, value]) => [`env.${name}`, value])) };
  const login = job.steps.find((step) => step.uses?.startsWith('docker/login-action@'));
  const copy = mkdtempSync(join(tmpdir(), 'publish-workflow-'));
  try {
    for (const path of PUBLISH_FILES) {
      mkdirSync(dirname(join(copy, path)), { recursive: true });
      copyFileSync(join(ROOT, path), join(copy, path));
    }
    const pushed = job.steps
      .filter((step) => step.run?.includes('tools/deploy/publish-images.sh --push'))
      .map((step) => {
        const env = { PATH: process.env['PATH'] ?? '', ...jobEnv, ...evaluateAll(step.env, withEnv) };
        const run = spawnSync('bash', ['--norc', '-e', '-c', (step.run ?? '').replace('--push', '--manifests')], { cwd: copy, env, encoding: 'utf8' });
        expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
        return APPS.map((app) => manifestImage(copy, app));
      });
    return { pushed, left: APPS.map((app) => manifestImage(copy, app)), registry: evaluate(login?.with?.['registry'] ?? '', withEnv) };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

describe('the GitHub workflows', () => {
  it('parse without errors with GitHub’s workflow parser, which does report a broken one', () => {
    const parsed = parse('.github/workflows/ci.yml', '.github/workflows/publish.yml');
    expect(parsed.map(({ file, errors }) => ({ file, errors }))).toEqual([
      { file: '.github/workflows/ci.yml', errors: [] },
      { file: '.github/workflows/publish.yml', errors: [] },
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'workflow-'));
    try {
      // A step that both runs a command and uses an action.
      const broken = readFileSync(join(ROOT, '.github/workflows/ci.yml'), 'utf8').replace(
        '      - name: Test\n',
        '      - name: Test\n        uses: actions/checkout@v4\n',
      );
      writeFileSync(join(dir, 'broken.yml'), broken);
      expect(parse(join(dir, 'broken.yml'))[0].errors).toEqual([expect.stringContaining("Unexpected value 'run'")]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('run .ci/run as root on every push and pull request, on the Debian 12 it is written for', () => {
    const ci = workflow('ci.yml');
    expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push']);
    const [job] = Object.values(ci.jobs);
    expect(job['runs-on']).toMatch(/^ubuntu-/);
    expect(job.container).toMatchObject({ image: 'debian:bookworm', options: '--privileged' });
    const steps = job.steps.map((step) => step.uses ?? step.run);
    expect(steps.indexOf('actions/checkout@v4')).toBeLessThan(steps.indexOf('bash .ci/run'));
    expect(steps.at(-1)).toBe('bash .ci/run');
  });

  it('publish on a version tag only, with write access to packages and read access to the repository', () => {
    const publish = workflow('publish.yml');
    expect(publish.on).toEqual({ push: { tags: ['v*'] } });
    const job = publish.jobs['images'];
    expect(job.permissions).toEqual({ contents: 'read', packages: 'write' });
    const order = ['Build the agents', 'Build the images', 'docker/login-action@v3', 'Push as latest', 'Push as the tag'];
    expect(job.steps.map((step) => step.name ?? step.uses).filter((name) => order.includes(name ?? ''))).toEqual(order);
    expect(job.steps.find((step) => step.name === 'Build the images')?.run).toBe('bash tools/deploy/build-images.sh');
    const login = job.steps.find((step) => step.uses === 'docker/login-action@v3');
    expect(login?.with).toEqual({ registry: '${{ env.IMAGE_REGISTRY }}', username: '${{ github.actor }}', password: '${{ secrets.GITHUB_TOKEN }}' });
  });

  it("push, for any owner, ghcr.io/<owner, lower-cased>/<agent> as latest and as the tag, into the registry it logs in to, and leave manifests naming the tag's", () => {
    const { pushed, left, registry } = published('Some-Owner', 'v1.2.3');
    expect(pushed).toEqual([
      ['ghcr.io/some-owner/green-agent:latest', 'ghcr.io/some-owner/purple-agent:latest'],
      ['ghcr.io/some-owner/green-agent:v1.2.3', 'ghcr.io/some-owner/purple-agent:v1.2.3'],
    ]);
    expect(left).toEqual(pushed[1]);
    expect(registry).toBe('ghcr.io');
    // What it writes into the manifests is what it pushes.
    const script = readFileSync(join(ROOT, 'tools/deploy/publish-images.sh'), 'utf8');
    expect(script).toContain('docker tag "$local_image" "$ref"');
    expect(script).toContain('docker push "$ref"');
  });

  it("push, from the upstream owner's repository, the very names the committed manifests run", () => {
    const committed = APPS.map((app) => manifestImage(ROOT, app));
    expect(committed).toEqual(['ghcr.io/arvo-rca/green-agent:latest', 'ghcr.io/arvo-rca/purple-agent:latest']);
    expect(published('arvo-rca', 'v0.1.0').pushed).toContainEqual(committed);
  });
});
