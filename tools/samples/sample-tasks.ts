import type Docker from 'dockerode';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { create as createTar } from 'tar';
import { SOURCE_TREE, taskImage } from '@arvo-rca/common';
import { runOneShot } from './one-shot';
import { type SampleManifest } from './sample-images';

export const SAMPLES_DIR = join(__dirname, '..', '..', 'samples');
export const TOOLING_OWNER = 'arvo-rca-tooling';

// Fixed metadata, so that the same tree always gives the same archive.
const ARCHIVE_MTIME = new Date('2024-01-01T00:00:00Z');

/** The entries of `repo-vul.tar.gz` (directories first, sorted), relative to `samples/<id>/source`. */
export async function archiveEntries(sample: SampleManifest, samplesDir = SAMPLES_DIR): Promise<string[]> {
  const sourceDir = join(samplesDir, sample.id, 'source');
  const entries: string[] = [];
  const visit = async (dir: string): Promise<void> => {
    entries.push(relative(sourceDir, dir) + '/');
    const children = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const child of children) {
      if (child.isDirectory()) await visit(join(dir, child.name));
      else if (child.isFile()) entries.push(relative(sourceDir, join(dir, child.name)));
    }
  };
  await visit(join(sourceDir, sample.project));
  return entries;
}

/** Writes `samples/<id>/repo-vul.tar.gz`: the vulnerable tree as `src-vul/<project>/...`, CyberGym style. */
export async function writeArchive(sample: SampleManifest, samplesDir = SAMPLES_DIR): Promise<string> {
  const file = join(samplesDir, sample.id, 'repo-vul.tar.gz');
  await createTar(
    {
      cwd: join(samplesDir, sample.id, 'source'),
      file,
      gzip: { level: 9 },
      portable: true,
      noDirRecurse: true,
      mtime: ARCHIVE_MTIME,
      prefix: SOURCE_TREE,
    },
    await archiveEntries(sample, samplesDir),
  );
  return file;
}

/** Runs `arvo` in a fresh container of the sample's image: the sanitizer report of the PoC. */
export async function reproduce(docker: Docker, sample: SampleManifest): Promise<{ exitCode: number; report: string }> {
  const { exitCode, output } = await runOneShot(docker, {
    image: taskImage('sample', sample.id),
    cmd: ['arvo'],
    owner: TOOLING_OWNER,
  });
  return { exitCode, report: output };
}

/**
 * A report with what changes from run to run blanked out: pids, addresses, and the rows of the shadow
 * memory dump (the stack's alignment moves with address-space randomisation).
 */
export function normalizeReport(report: string): string {
  return report
    .replace(/^(=>)?\s*0x[0-9a-f]+:[ 0-9a-f[\]]+$/gm, '<shadow row>')
    .replace(/==\d+==/g, '==PID==')
    .replace(/0x[0-9a-f]+/g, '0xADDR')
    .replace(/[ \t]+$/gm, '');
}
