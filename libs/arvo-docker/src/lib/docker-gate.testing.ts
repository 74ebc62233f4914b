import { spawnSync } from 'node:child_process';

const PROBE = "new (require('dockerode'))().ping().then(() => process.exit(0), () => process.exit(1))";

function engineAnswersNow(): boolean {
  return spawnSync(process.execPath, ['-e', PROBE], { timeout: 5000, stdio: 'ignore' }).status === 0;
}

/**
 * `describe` for suites that need a Docker engine. Without one they skip, loudly, on a developer's
 * machine; under CI=true a missing engine fails instead, so CI can never pass by skipping.
 */
export function describeWithDocker(name: string, body: () => void): void {
  if (engineAnswersNow()) {
    describe(name, body);
  } else if (process.env['CI'] === 'true') {
    describe(name, () => {
      it('has a Docker engine to run against', () => {
        throw new Error('no Docker engine answers, and CI=true forbids skipping Docker tests');
      });
    });
  } else {
    console.warn(`SKIPPED, no Docker engine answers: ${name}`);
    describe.skip(name, body);
  }
}
