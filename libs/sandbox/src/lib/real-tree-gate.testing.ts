import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..', '..', '..');

/** Where tools/bench/real-tree.sh keeps the Debian source packages it fetched: `<cache>/<package>/<package>-<version>/`. */
function realTreeCache(): string {
  return process.env['CACHE'] ?? join(homedir(), '.cache', 'arvo-rca', 'trees');
}

function fetched(pkg: string): boolean {
  const folder = join(realTreeCache(), pkg);
  return existsSync(folder) && readdirSync(folder).some((name) => name.startsWith(`${pkg}-`));
}

/**
 * `describe` for suites on a real project tree: a Debian source package that tools/bench/real-tree.sh
 * fetched with `apt-get source` (.ci/run does it). Without the tree they skip, loudly, on a developer's
 * machine; under CI=true a missing tree fails instead, so CI can never pass by skipping them.
 */
export function describeWithRealTree(pkg: string, name: string, body: () => void): void {
  if (fetched(pkg)) {
    describe(name, body);
  } else if (process.env['CI'] === 'true') {
    describe(name, () => {
      it(`has the ${pkg} source tree to run on`, () => {
        throw new Error(
          `no ${pkg} source in ${join(realTreeCache(), pkg)}, and CI=true forbids skipping (.ci/run fetches it: tools/bench/real-tree.sh ${pkg})`,
        );
      });
    });
  } else {
    console.warn(`SKIPPED, no ${pkg} source in ${join(realTreeCache(), pkg)} (fetch it with: bash tools/bench/real-tree.sh ${pkg}): ${name}`);
    describe.skip(name, body);
  }
}

/** Lays out a task on a real tree in the samples' layout (tools/samples/real-task.sh) under `outDir`; its folder. */
export function layOutRealTask(outDir: string, task: 'libarchive-e8' | 'systemd-udev'): string {
  return execFileSync('bash', [join(REPO, 'tools', 'samples', 'real-task.sh'), outDir, task], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}
