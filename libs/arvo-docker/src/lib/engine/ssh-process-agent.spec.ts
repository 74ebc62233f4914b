import Docker from 'dockerode';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DockerEngine } from './docker-engine';
import { describeWithDocker } from './docker-gate.testing';
import type { SshSettings } from './engine-settings';
import { SshProcessAgent, sshDial } from './ssh-process-agent';
import { sshAvailable, sshChildren, type SshServer, startSshServer } from './ssh-server.testing';

async function until(what: string, done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`still not so after ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function describeWithSsh(name: string, body: () => void): void {
  if (sshAvailable()) describeWithDocker(name, body);
  else if (process.env['CI'] === 'true') it('has sshd and ssh to run against', () => fail('no sshd or ssh here, and CI=true forbids skipping'));
  else describe.skip(name, body);
}

describe('the ssh command for an ssh:// engine', () => {
  it('runs dial-stdio there in batch mode, with the user, port, key and known hosts given, and nothing a host name could turn into an option', () => {
    const dial = sshDial(new URL('ssh://builder@10.0.0.3:2222'), { identityFile: '/k', knownHostsFile: '/kh', authSocket: '/a' });

    expect(dial.command).toBe('ssh');
    expect(dial.args).toEqual([
      '-o',
      'BatchMode=yes',
      '-o',
      'ConnectTimeout=30',
      '-T',
      '-x',
      '-a',
      '-l',
      'builder',
      '-p',
      '2222',
      '-i',
      '/k',
      '-o',
      'UserKnownHostsFile=/kh',
      '--',
      '10.0.0.3',
      'docker',
      'system',
      'dial-stdio',
    ]);
    expect(dial.env?.['SSH_AUTH_SOCK']).toBe('/a');
    expect(sshDial(new URL('ssh://[::1]')).args.slice(-5)).toEqual(['--', '::1', 'docker', 'system', 'dial-stdio']);
    expect(sshDial(new URL('ssh://host')).env).toBeUndefined();
  });
});

describeWithSsh('an engine over ssh, an ssh process per connection', () => {
  let dir: string;
  let server: SshServer;
  let settings: SshSettings;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'arvo-sshd-'));
    server = await startSshServer(dir);
    settings = { identityFile: server.identityFile, knownHostsFile: server.knownHostsFile };
  });

  afterAll(async () => {
    server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  afterEach(() => expect(sshChildren()).toEqual([]));

  it('answers and lists through ssh processes that are its own, and close() ends every one', async () => {
    const engine = new DockerEngine({ host: server.url, ssh: settings });

    expect(await engine.answers(15_000)).toBe(true);
    await expect(Promise.all([engine.listContainers(['arvo-rca.none']), engine.listContainers(['arvo-rca.none'])])).resolves.toEqual([[], []]);
    expect(engine.sshProcesses.length).toBeGreaterThanOrEqual(1);
    expect(sshChildren().sort()).toEqual([...engine.sshProcesses].sort());
    engine.close();
    await until('no ssh process left after close()', () => sshChildren().length === 0);
  }, 30_000);

  it("ends a connection's ssh process when its call is aborted, keeps the idle one, and ends that with the agent", async () => {
    const agent = new SshProcessAgent(sshDial(new URL(server.url), settings));
    const docker = new Docker({ protocol: 'http', host: '127.0.0.1', agent } as Docker.DockerOptions);
    const aborted = new AbortController();
    const events = (await docker.getEvents({ abortSignal: aborted.signal })) as NodeJS.ReadableStream;
    events.on('error', () => undefined);
    const [streaming] = agent.processes;
    await docker.ping(); // a connection of its own, kept alive for the next call
    expect(agent.processes).toHaveLength(2);

    aborted.abort();
    await until('the aborted call has no ssh process', () => !sshChildren().includes(streaming));
    expect(agent.processes).toHaveLength(1);
    const open = (await docker.getEvents({})) as NodeJS.ReadableStream;
    open.on('error', () => undefined);
    agent.destroy();
    await until('no ssh process left after destroy()', () => sshChildren().length === 0);
  }, 30_000);

  it('fails with SSH_NOT_INSTALLED, naming the engine, when there is no ssh client', async () => {
    const engine = new DockerEngine({ host: server.url, ssh: { ...settings, command: '/nonexistent/ssh' } });

    await expect(engine.listContainers([])).rejects.toMatchObject({ code: 'SSH_NOT_INSTALLED', message: expect.stringContaining('127.0.0.1:') });
    expect(await engine.answers()).toBe(false);
  });

  it("fails with SSH_ENGINE_REFUSED, naming the host and in ssh's words, on an unknown host key, a key it refuses, or no sshd", async () => {
    const unknownHost = new DockerEngine({ host: server.url, ssh: { ...settings, knownHostsFile: '/dev/null' } });
    const refusedKey = new DockerEngine({ host: server.url, ssh: { ...settings, identityFile: join(dir, 'other_key') } });
    const nobody = new DockerEngine({ host: 'ssh://root@127.0.0.1:1', ssh: settings });

    await expect(unknownHost.listContainers([])).rejects.toMatchObject({
      code: 'SSH_ENGINE_REFUSED',
      message: expect.stringMatching(/^ssh to the engine at 127\.0\.0\.1:\d+ failed \(exit status 255\): .*Host key verification failed/s),
    });
    await expect(refusedKey.listContainers([])).rejects.toMatchObject({ code: 'SSH_ENGINE_REFUSED', message: expect.stringMatching(/Permission denied/) });
    await expect(nobody.listContainers([])).rejects.toMatchObject({
      code: 'SSH_ENGINE_REFUSED',
      message: expect.stringMatching(/127\.0\.0\.1:1 .*Connection refused/s),
    });
  }, 30_000);
});
