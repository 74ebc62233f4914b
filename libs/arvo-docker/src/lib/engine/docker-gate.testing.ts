import { spawnSync } from 'node:child_process';
import { engineSettingsFromEnvironment } from './engine-settings';
import { sshDial } from './ssh-process-agent';

const PROBE = "new (require('dockerode'))().ping().then(() => process.exit(0), () => process.exit(1))";

function engineAnswersNow(): boolean {
  const { host, ssh } = engineSettingsFromEnvironment();
  if (host?.startsWith('ssh://')) {
    // As the product reaches it, through the ssh client: dockerode's own ssh transport cannot parse an
    // ssh:// DOCKER_HOST on Node 26.
    const dial = sshDial(new URL(host), ssh);
    const answer = spawnSync(dial.command, dial.args, { env: dial.env, input: 'GET /_ping HTTP/1.0\r\n\r\n', timeout: 15_000 });
    return /^HTTP\/1\.[01] 200/.test(answer.stdout?.toString() ?? '');
  }
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
