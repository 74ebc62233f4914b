import { spawn, spawnSync } from 'node:child_process';
import { ProcessTable } from '@arvo-rca/common';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';

const SSHD = '/usr/sbin/sshd';

/** An sshd on loopback whose one key may only run `docker system dial-stdio`, to the engine this process's environment names. */
export interface SshServer {
  /** `ssh://user@127.0.0.1:port`. */
  url: string;
  identityFile: string;
  knownHostsFile: string;
  stop(): void;
}

/** Whether sshd and the ssh client are here. */
export function sshAvailable(): boolean {
  return existsSync(SSHD) && spawnSync('ssh', ['-V'], { stdio: 'ignore' }).status === 0;
}

/** Starts the sshd in `dir` (its keys, its known hosts); it runs in the foreground, a child of this process. */
export async function startSshServer(dir: string): Promise<SshServer> {
  for (const name of ['host_key', 'client_key', 'other_key']) {
    spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, name)], { stdio: 'ignore' });
  }
  const engine = ['DOCKER_HOST', 'DOCKER_TLS_VERIFY', 'DOCKER_CERT_PATH'].flatMap((name) => (process.env[name] ? [`${name}=${process.env[name]}`] : []));
  const dial = ['env', ...engine, spawnSync('sh', ['-c', 'command -v docker']).stdout.toString().trim(), 'system', 'dial-stdio'].join(' ');
  const options = 'no-pty,no-port-forwarding,no-agent-forwarding,no-X11-forwarding';
  writeFileSync(join(dir, 'authorized_keys'), `command="${dial}",${options} ${readFileSync(join(dir, 'client_key.pub'), 'utf8')}`);
  const port = await freePort();
  writeFileSync(join(dir, 'known_hosts'), `[127.0.0.1]:${port} ${readFileSync(join(dir, 'host_key.pub'), 'utf8')}`);
  mkdirSync('/run/sshd', { recursive: true });
  const sshd = spawn(
    SSHD,
    ['-D', '-e', '-f', '/dev/null', '-p', String(port), '-o', 'ListenAddress=127.0.0.1', '-o', `HostKey=${join(dir, 'host_key')}`]
      .concat(['-o', `AuthorizedKeysFile=${join(dir, 'authorized_keys')}`, '-o', 'StrictModes=no', '-o', 'UsePAM=no', '-o', 'PasswordAuthentication=no'])
      .concat(['-o', 'PermitRootLogin=prohibit-password', '-o', 'MaxStartups=100', '-o', 'PidFile=none']),
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  sshd.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (!/Server listening/.test(log) && sshd.exitCode === null) return;
      clearInterval(check);
      if (sshd.exitCode === null) resolve();
      else reject(new Error(`sshd did not start: ${log}`));
    }, 50);
  });
  return {
    url: `ssh://${userInfo().username}@127.0.0.1:${port}`,
    identityFile: join(dir, 'client_key'),
    knownHostsFile: join(dir, 'known_hosts'),
    stop: () => sshd.kill(),
  };
}

/** The ssh clients this process runs now (children named `ssh`), from /proc. */
export function sshChildren(): number[] {
  return new ProcessTable()
    .stats()
    .filter((stat) => stat.ppid === process.pid && stat.name === 'ssh')
    .map((stat) => stat.pid);
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
