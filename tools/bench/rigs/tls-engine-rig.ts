import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { DockerEngine } from '@arvo-rca/arvo-docker';
import { readEnvFile } from './engine-env';

const run = promisify(execFile);

/**
 * A second engine for the bench: a dockerd on a loopback TCP port with TLS, made and removed by
 * tools/engines/tls-engine.sh, loaded with `images`. Used through `use`, which always takes it down.
 */
export async function withTlsEngine<T>(
  root: string,
  images: readonly string[],
  use: (docker: Docker, address: string, engine: DockerEngine) => Promise<T>,
): Promise<T> {
  const script = join(root, 'tools', 'engines', 'tls-engine.sh');
  const state = mkdtempSync(join(tmpdir(), 'arvo-rca-bench-tls-'));
  try {
    await run('bash', [script, 'up', state], { env: { ...process.env, IMAGES: images.join(' ') }, maxBuffer: 1 << 24 });
    const env = readEnvFile(join(state, 'env'));
    const [host, certPath] = [env['DOCKER_HOST'], env['DOCKER_CERT_PATH']];
    if (!host || !certPath) throw new Error(`${state}/env names no DOCKER_HOST or no DOCKER_CERT_PATH`);
    const address = new URL(host.replace(/^tcp:/, 'https:'));
    const cert = (name: string): Buffer => readFileSync(join(certPath, name));
    const docker = new Docker({
      protocol: 'https',
      host: address.hostname,
      port: Number(address.port),
      ca: cert('ca.pem'),
      cert: cert('cert.pem'),
      key: cert('key.pem'),
    });
    return await use(docker, host, new DockerEngine({ host, tlsVerify: true, certPath }));
  } finally {
    await run('bash', [script, 'down', state]).catch((error: Error) => console.warn(`bench: tls-engine.sh down failed: ${error.message}`));
    rmSync(state, { recursive: true, force: true });
  }
}
