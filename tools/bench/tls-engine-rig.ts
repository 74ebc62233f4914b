import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';

const run = promisify(execFile);

/**
 * A second engine for the bench: a dockerd on a loopback TCP port with TLS, made and removed by
 * tools/engines/tls-engine.sh, loaded with `images`. Used through `use`, which always takes it down.
 */
export async function withTlsEngine<T>(root: string, images: readonly string[], use: (docker: Docker, address: string) => Promise<T>): Promise<T> {
  const script = join(root, 'tools', 'engines', 'tls-engine.sh');
  const state = mkdtempSync(join(tmpdir(), 'arvo-rca-bench-tls-'));
  try {
    await run('bash', [script, 'up', state], { env: { ...process.env, IMAGES: images.join(' ') }, maxBuffer: 1 << 24 });
    const env = Object.fromEntries(
      readFileSync(join(state, 'env'), 'utf8')
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    const address = new URL(env['DOCKER_HOST'].replace(/^tcp:/, 'https:'));
    const cert = (name: string): Buffer => readFileSync(join(env['DOCKER_CERT_PATH'], name));
    const docker = new Docker({ protocol: 'https', host: address.hostname, port: Number(address.port), ca: cert('ca.pem'), cert: cert('cert.pem'), key: cert('key.pem') });
    return await use(docker, env['DOCKER_HOST']);
  } finally {
    await run('bash', [script, 'down', state]).catch((error: Error) => console.warn(`bench: tls-engine.sh down failed: ${error.message}`));
    rmSync(state, { recursive: true, force: true });
  }
}
