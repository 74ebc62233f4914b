import Docker from 'dockerode';
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { create as createTar } from 'tar';
import { LABEL_RECIPE } from '@arvo-rca/arvo-docker';
import { taskImage } from '@arvo-rca/common';

/** What `samples/<id>/sample.json` says of a bundled sample task. */
export interface SampleManifest {
  id: string;
  project: string;
  fuzzer: string;
  bugClass: string;
  crashFunction: string;
  rootCause: { file: string; function: string }[];
}

export const BASE_IMAGE = 'debian:bookworm-slim';
const RECIPE_DIR = 'image';

export async function listSampleIds(samplesDir: string): Promise<string[]> {
  const entries = await readdir(samplesDir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory() && /^\d+$/.test(entry.name))
    .map((entry) => entry.name)
    .sort((a, b) => Number(a) - Number(b));
}

export async function readSampleManifest(samplesDir: string, id: string): Promise<SampleManifest> {
  const raw = JSON.parse(await readFile(join(samplesDir, id, 'sample.json'), 'utf8'));
  return {
    id,
    project: raw.project,
    fuzzer: raw.fuzzer,
    bugClass: raw.bug_class,
    crashFunction: raw.crash_function,
    rootCause: raw.root_cause,
  };
}

/** The files that make a sample's image, relative to the samples folder (the build context). */
export async function recipeFiles(samplesDir: string, sample: SampleManifest): Promise<string[]> {
  const roots = [RECIPE_DIR, join(sample.id, 'source', sample.project)];
  const files = [join(sample.id, 'poc')];
  for (const root of roots) files.push(...(await walk(samplesDir, join(samplesDir, root))));
  return files.sort();
}

/** A hash of everything the image is built from, base image included: equal hash, equal image. */
export async function recipeHash(samplesDir: string, sample: SampleManifest, baseImageId: string): Promise<string> {
  const hash = createHash('sha256').update(`base ${baseImageId}\n`);
  for (const file of await recipeFiles(samplesDir, sample)) {
    hash.update(`file ${file}\n`).update(await readFile(join(samplesDir, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

export interface EnsureImageResult {
  tag: string;
  built: boolean;
  recipe: string;
}

/**
 * Builds `arvo-rca-sample:<id>-vul` unless an image with the same recipe hash is already there,
 * so a second run on the same machine rebuilds nothing.
 */
export async function ensureSampleImage(
  docker: Docker,
  samplesDir: string,
  sample: SampleManifest,
  onProgress: (line: string) => void = () => undefined,
): Promise<EnsureImageResult> {
  const tag = taskImage('sample', sample.id);
  const base = await docker
    .getImage(BASE_IMAGE)
    .inspect()
    .catch(() => {
      throw new Error(`base image ${BASE_IMAGE} is missing: run tools/base-image.sh first`);
    });
  const recipe = await recipeHash(samplesDir, sample, base.Id);
  const existing = await docker
    .getImage(tag)
    .inspect()
    .catch(() => undefined);
  if (existing?.Config.Labels?.[LABEL_RECIPE] === recipe) return { tag, built: false, recipe };

  const context = createTar({ cwd: samplesDir, portable: true }, await recipeFiles(samplesDir, sample));
  const stream = await docker.buildImage(context as unknown as NodeJS.ReadableStream, {
    t: tag,
    dockerfile: `${RECIPE_DIR}/Dockerfile`,
    buildargs: { SAMPLE: sample.id, PROJECT: sample.project, FUZZER: sample.fuzzer },
    labels: { [LABEL_RECIPE]: recipe },
    rm: true,
    forcerm: true,
  });
  await followBuild(docker, stream, onProgress);
  return { tag, built: true, recipe };
}

interface BuildEvent {
  stream?: string;
  error?: string;
  errorDetail?: { message?: string };
}

function followBuild(docker: Docker, stream: NodeJS.ReadableStream, onProgress: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let failure: string | undefined;
    docker.modem.followProgress(
      stream,
      (err: Error | null) => (err ? reject(err) : failure ? reject(new Error(failure)) : resolve()),
      (event: BuildEvent) => {
        if (event.error) failure = event.errorDetail?.message ?? event.error;
        const line = event.stream?.trimEnd();
        if (line) onProgress(line);
      },
    );
  });
}

async function walk(base: string, dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await walk(base, path)));
    else if (entry.isFile()) files.push(relative(base, path));
  }
  return files;
}
