import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AssessmentResult } from '@arvo-rca/results';
import { AssessRunner } from './support/processes/assess-runner';
import { BASELINE_SCORES, scoresOf } from './support/records/baseline-scores';
import { SAMPLES_DIR, Scratch } from './support/processes/agent-processes';
import { TlsEngine } from './support/engines/tls-engine';
import { sampleImageTag } from '@arvo-rca/arvo-docker/testing';

const SAMPLE_IMAGES = ['1', '2', '3', '4', '5'].map(sampleImageTag);
// The baseline solver: no key, whatever this machine's environment holds.
const NO_KEY = { MODEL: '', ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' };

/**
 * `npm start` on a new machine: a Docker engine that holds no image at all (a dockerd of its own over TLS,
 * its containers reaching Debian's mirror as a new machine's do), and nothing else made beforehand. The
 * runner makes the base image and the samples' images there before it starts the agents.
 */
describe('the first npm start on an engine that holds no image', () => {
  const scratch = new Scratch();
  const runners: AssessRunner[] = [];
  let engine: TlsEngine | undefined;

  beforeAll(async () => {
    engine = await TlsEngine.up([], { outbound: true });
  }, 120_000);

  afterAll(async () => {
    runners.forEach((runner) => runner.stopGroup());
    await engine?.down();
    scratch.remove();
  }, 120_000);

  function on(): TlsEngine {
    if (!engine) throw new Error('the empty engine did not come up');
    return engine;
  }

  async function npmStart(env: NodeJS.ProcessEnv = {}): Promise<AssessRunner> {
    const runner = AssessRunner.npmStart({ ...scratch.env(), ...on().env, ...NO_KEY, SANDBOX: 'docker', ...env });
    runners.push(runner);
    await runner.exited();
    return runner;
  }

  async function tagsOnEngine(): Promise<string[]> {
    return (await on().client().listImages()).flatMap((image) => image.RepoTags ?? []).sort();
  }

  it('makes every image the samples need, scores 5 of 5 and exits 0; a second run makes none and says nothing of images', async () => {
    expect(await tagsOnEngine()).toEqual([]);

    const first = await npmStart();

    expect({ code: first.code, output: first.output }).toMatchObject({ code: 0 });
    expect(first.output).toMatch(/^images: arvo-rca-sample:1-vul is not on the engine at tcp:\/\/127\.0\.0\.1:\d+; pulling it/m);
    expect(first.captures(/^images: built (\S+) in/)).toEqual(SAMPLE_IMAGES);
    expect(await tagsOnEngine()).toEqual(['debian:bookworm-slim', ...SAMPLE_IMAGES].sort());
    const result = JSON.parse(readFileSync(first.capture(/^results: (.+)$/), 'utf8')) as AssessmentResult;
    expect(scoresOf(result)).toEqual(BASELINE_SCORES);
    expect(first.lines.filter((line) => line.trim() !== '').at(-1)).toMatch(/^logs: /);

    const second = await npmStart();

    expect(second.code).toBe(0);
    expect(second.output).toMatch(/^5 of 5 scored in/m);
    expect(second.lines.filter((line) => line.startsWith('images:'))).toEqual([]);
  }, 900_000);

  it('stops before any agent starts, exits 1 and names the image in its last line when a sample recipe cannot be built', async () => {
    // The engine has its base image (made above, or now) but no sample image; the recipe is a copy, broken on purpose.
    await Promise.all(
      SAMPLE_IMAGES.map((tag) =>
        on()
          .client()
          .getImage(tag)
          .remove()
          .catch(() => undefined),
      ),
    );
    const samples = join(scratch.dir, 'samples');
    cpSync(SAMPLES_DIR, samples, { recursive: true });
    writeFileSync(join(samples, 'image', 'Dockerfile'), 'FROM debian:bookworm-slim\nRUN echo "this recipe is broken on purpose" && exit 3\n');

    const broken = await npmStart({ SAMPLES_DIR: samples });

    expect({ code: broken.code, output: broken.output }).toMatchObject({ code: 1 });
    const last = broken.lines.filter((line) => line.trim() !== '').at(-1);
    expect(last).toMatch(/^assess: image arvo-rca-sample:1-vul could not be built on the engine at tcp:\/\/127\.0\.0\.1:\d+: .*(?:exit 3|non-zero code: 3)/);
    expect(last).toMatch(/see the recipe in .*samples\/image/);
    expect(broken.output).toMatch(/this recipe is broken on purpose/);
    expect(broken.output).not.toMatch(/^green agent:/m);
    expect(await tagsOnEngine()).toEqual(['debian:bookworm-slim']);
  }, 600_000);
});
