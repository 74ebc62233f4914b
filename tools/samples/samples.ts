// Makes what the bundled sample tasks are built from into what they ship:
//   images   build arvo-rca-sample:<id>-vul for each sample (cached by recipe hash)
//   archives write samples/<id>/repo-vul.tar.gz from samples/<id>/source
//   reports  write samples/<id>/error.txt by running the PoC in the sample's image
//   all      the three, in that order
// Usage: tsx --tsconfig tools/tsconfig.json tools/samples/samples.ts <command> [id ...]
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BASE_IMAGE, ensureSampleImage, listSampleIds, readSampleManifest, type SampleManifest } from './sample-images';
import { createDockerClient, DockerEngine } from '@arvo-rca/arvo-docker';
import { reproduce, SAMPLES_DIR, writeArchive } from './sample-tasks';

type Command = 'images' | 'archives' | 'reports' | 'all';
const COMMANDS: Command[] = ['images', 'archives', 'reports', 'all'];

async function main(argv: string[]): Promise<void> {
  const [command, ...ids] = argv;
  if (!COMMANDS.includes(command as Command)) {
    throw new Error(`usage: samples.ts <${COMMANDS.join('|')}> [id ...]`);
  }
  const samples = await Promise.all((ids.length ? ids : await listSampleIds(SAMPLES_DIR)).map((id) => readSampleManifest(SAMPLES_DIR, id)));
  if (command === 'images' || command === 'all') await buildImages(samples);
  if (command === 'archives' || command === 'all') await writeArchives(samples);
  if (command === 'reports' || command === 'all') await writeReports(samples);
}

async function buildImages(samples: SampleManifest[]): Promise<void> {
  const docker = createDockerClient();
  if (!(await DockerEngine.fromEnvironment().answers())) {
    // A developer without an engine can still run the rest of the tests; CI cannot.
    if (process.env['CI'] === 'true') throw new Error('no Docker engine answers: run tools/docker-engine.sh');
    console.warn('samples: no Docker engine answers, sample images not built (Docker tests will skip)');
    return;
  }
  const hasBase = await docker
    .getImage(BASE_IMAGE)
    .inspect()
    .then(
      () => true,
      () => false,
    );
  if (!hasBase && spawnSync('bash', [join(__dirname, '..', 'base-image.sh')], { stdio: 'inherit' }).status !== 0) {
    throw new Error(`could not make ${BASE_IMAGE} available`);
  }
  // One at a time: the first build makes the shared layers the others reuse.
  for (const sample of samples) {
    const started = Date.now();
    const { tag, built, recipe } = await ensureSampleImage(docker, SAMPLES_DIR, sample);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`${tag}  recipe ${recipe}  ${built ? `built in ${seconds}s` : 'up to date'}`);
  }
}

async function writeArchives(samples: SampleManifest[]): Promise<void> {
  for (const sample of samples) console.log(`wrote ${await writeArchive(sample)}`);
}

async function writeReports(samples: SampleManifest[]): Promise<void> {
  const docker = createDockerClient();
  for (const sample of samples) {
    const { exitCode, report } = await reproduce(docker, sample);
    if (exitCode === 0 || !report.includes('ERROR: AddressSanitizer')) {
      throw new Error(`sample ${sample.id}: the PoC did not crash (exit ${exitCode}):\n${report}`);
    }
    const file = join(SAMPLES_DIR, sample.id, 'error.txt');
    await writeFile(file, report);
    console.log(`wrote ${file} (exit ${exitCode})`);
  }
}

main(process.argv.slice(2)).catch((error: Error) => {
  console.error(`samples: ${error.message}`);
  process.exit(1);
});
