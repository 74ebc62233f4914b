import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type Docker from 'dockerode';
import { BASE_IMAGE } from './sample-images';

const SCRIPT = join(__dirname, '..', 'base-image.sh');
// Lines of the script kept for the error when it fails.
const KEPT_LINES = 20;

/**
 * Makes the samples' base image, debian:bookworm-slim, on the engine the environment names, as
 * tools/base-image.sh does (pulled, imported from its cached root filesystem, or bootstrapped from
 * Debian's mirror); its lines go to `onLine` as they come. Throws with the script's last words.
 */
export async function ensureBaseImage(docker: Docker, onLine: (line: string) => void): Promise<'present' | 'made'> {
  if (
    await docker
      .getImage(BASE_IMAGE)
      .inspect()
      .then(
        () => true,
        () => false,
      )
  )
    return 'present';
  const child = spawn('bash', [SCRIPT, BASE_IMAGE], { stdio: ['ignore', 'pipe', 'pipe'] });
  const kept: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      kept.push(line);
      kept.splice(0, kept.length - KEPT_LINES);
      onLine(line);
    });
  }
  const code = await new Promise<number | null>((resolve, reject) => child.once('error', reject).once('close', resolve));
  if (code !== 0) throw new Error(`tools/base-image.sh exited with ${code}: ${kept.at(-1)?.replace(/^base-image: /, '') ?? 'it said nothing'}`);
  return 'made';
}
