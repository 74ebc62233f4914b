// Before the runner starts a green agent on Docker: every image its tasks need is made to be on that
// engine. Present: nothing to do. Else pulled where a registry has it, and a bundled sample's image built
// where none has it, as `npm run images` builds it (the base image first, as tools/base-image.sh makes it).
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type Docker from 'dockerode';
import { CodedError } from '@arvo-rca/common';
import { type DockerEngine, ImagePuller } from '@arvo-rca/arvo-docker';
import { DEFAULT_SANDBOX_OPTIONS } from '@arvo-rca/sandbox';
import { ensureBaseImage } from '../samples/base-image';
import { BASE_IMAGE, ensureSampleImage, readSampleManifest } from '../samples/sample-images';
import type { TaskImage } from './task-images';

/** An image a task needs that is not on the engine and could be neither pulled nor built; the message says which, where and what to run. */
export class ImageCheckError extends CodedError<'IMAGE_UNAVAILABLE'> {}

export interface ImageCheck {
  docker: Docker;
  /** The same engine, for the puller and the address the lines name. */
  engine: DockerEngine;
  /** The green agent's SAMPLES_DIR: its tasks, and the recipe of their images. */
  samplesDir: string;
  /** The repository, from which folders are named in the lines. */
  root: string;
  say: (line: string) => void;
}

// A registry that has a sample's image answers at once; one that does not should not hold up the build.
const SAMPLE_PULL_LIMIT_S = 60;
// Build output shown: each step the engine runs (not those it has cached); the last lines only when the build fails.
const KEPT_LINES = 12;

export async function ensureTaskImages(images: readonly TaskImage[], check: ImageCheck): Promise<void> {
  const puller = new ImagePuller(check.engine);
  // Why the registry had none of the images before: said once, not for every sample.
  const refusals = new Set<string>();
  for (const image of images) await ensureTaskImage(image, puller, check, refusals);
}

async function ensureTaskImage(task: TaskImage, puller: ImagePuller, check: ImageCheck, refusals: Set<string>): Promise<void> {
  const { docker, samplesDir, say } = check;
  const engine = check.engine.address;
  if (
    await docker
      .getImage(task.image)
      .inspect()
      .then(
        () => true,
        () => false,
      )
  )
    return;
  const buildable = task.source === 'sample' && existsSync(join(samplesDir, task.id, 'sample.json'));
  const limit = buildable ? SAMPLE_PULL_LIMIT_S : DEFAULT_SANDBOX_OPTIONS.pullTimeoutS;
  say(`images: ${task.image} is not on the engine at ${engine}; pulling it (limit ${limit} s)`);
  // The puller's own first line says again what the line above says.
  const pulled = await puller
    .ensure(task.image, limit, {
      say: (line) => {
        if (!line.startsWith(`image ${task.image} is missing`)) say(`images:   ${line}`);
      },
    })
    .then(
      () => undefined,
      (error: Error) => oneLine(error.message),
    );
  if (pulled === undefined) return say(`images: pulled ${task.image}`);
  if (!buildable) {
    throw new ImageCheckError(
      'IMAGE_UNAVAILABLE',
      `image ${task.image} could not be had on the engine at ${engine}: ${pulled}; check that the engine reaches its registry (\`docker pull ${task.image}\`)`,
    );
  }
  const recipe = folderName(join(samplesDir, 'image'), check.root);
  const refusal = pulled.replaceAll(task.image, '<image>');
  say(`images: no registry has it${refusals.has(refusal) ? ' either' : ` (${pulled})`}; building it from ${recipe} (first run only, a few minutes)`);
  refusals.add(refusal);
  await buildSampleImage(task, check, engine, recipe);
}

async function buildSampleImage(task: TaskImage, check: ImageCheck, engine: string, recipe: string): Promise<void> {
  const { docker, samplesDir, say } = check;
  const started = Date.now();
  await ensureBaseImage(docker, (line) => say(`images:   ${line}`)).catch((error: Error) => {
    throw new ImageCheckError(
      'IMAGE_UNAVAILABLE',
      `image ${task.image} could not be built on the engine at ${engine}: its base image ${BASE_IMAGE} could not be made (${oneLine(error.message)}); ` +
        `\`bash tools/base-image.sh ${BASE_IMAGE}\` shows why (it needs Docker Hub, or Debian's mirror and root for debootstrap)`,
    );
  });
  const kept: string[] = [];
  let step: string | undefined;
  const progress = (line: string): void => {
    kept.push(line);
    kept.splice(0, kept.length - KEPT_LINES);
    if (step && !line.includes('Using cache')) say(`images:   ${task.image}: ${step.slice(0, 120)}`);
    step = line.startsWith('Step ') ? line : undefined;
  };
  try {
    await ensureSampleImage(docker, samplesDir, await readSampleManifest(samplesDir, task.id), progress);
  } catch (error) {
    kept.forEach((line) => say(`images:   | ${line}`));
    throw new ImageCheckError(
      'IMAGE_UNAVAILABLE',
      `image ${task.image} could not be built on the engine at ${engine}: ${oneLine((error as Error).message)}; see the recipe in ${recipe}${wholeBuild(check)}`,
    );
  }
  say(`images: built ${task.image} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
}

/** A folder as the user would type it: from the repository when it is in it, else whole. */
function folderName(folder: string, root: string): string {
  const inside = relative(root, folder);
  return inside.startsWith('..') || isAbsolute(inside) ? folder : inside || '.';
}

// `npm run images` builds the repository's own samples only.
function wholeBuild(check: ImageCheck): string {
  return resolve(check.samplesDir) === join(check.root, 'samples') ? ', or `npm run images` for the whole build' : '';
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
