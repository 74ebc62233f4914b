import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { inspect } from 'node:util';
import { DockerEngine } from './docker-engine';
import { IDLE_CONNECTION_MS as ENGINE_IDLE_CONNECTION_MS } from '@arvo-rca/common';
import { describeWithDocker } from './docker-gate.testing';
import { engineSettingsFromEnvironment } from './engine-settings';

describe('the Docker engine', () => {
  it('is at the address its settings give, in the words the Docker CLI uses', () => {
    expect(new DockerEngine({ host: 'unix:///run/podman/podman.sock' }).address).toBe('unix:///run/podman/podman.sock');
    expect(new DockerEngine({ host: 'tcp://10.0.0.2:2376', tlsVerify: true }).address).toBe('tcp://10.0.0.2:2376');
    expect(new DockerEngine({ host: '10.0.0.2:2375' }).address).toBe('tcp://10.0.0.2:2375');
    expect(new DockerEngine({ host: 'ssh://builder@10.0.0.3' }).address).toBe('ssh://10.0.0.3:22');
  });

  it('reads its settings from the environment only where a tool asks it to', () => {
    expect(engineSettingsFromEnvironment({ DOCKER_HOST: 'tcp://10.0.0.2:2376', DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: '/certs' })).toEqual({
      host: 'tcp://10.0.0.2:2376',
      tlsVerify: true,
      certPath: '/certs',
      ssh: {},
    });
    expect(
      engineSettingsFromEnvironment({ DOCKER_HOST: 'ssh://builder@10.0.0.3', DOCKER_SSH_IDENTITY: '/k', DOCKER_SSH_KNOWN_HOSTS: '/kh', SSH_AUTH_SOCK: '/a' }),
    ).toEqual({
      host: 'ssh://builder@10.0.0.3',
      tlsVerify: false,
      ssh: { identityFile: '/k', knownHostsFile: '/kh', authSocket: '/a' },
    });
    expect(engineSettingsFromEnvironment({})).toEqual({ host: undefined, tlsVerify: false, certPath: undefined, ssh: {} });
  });
});

describeWithDocker('the Docker engine, answering', () => {
  it('answers where the environment names the engine, and not where its settings name none, whatever the environment says', async () => {
    expect(await DockerEngine.fromEnvironment().answers()).toBe(true);
    expect(await new DockerEngine({ host: 'unix:///nonexistent/docker.sock' }).answers()).toBe(false);
  });

  it("gives its images' disk to calls made at once, where the engine walks for one at a time and refuses the others", async () => {
    const engine = DockerEngine.fromEnvironment();
    // Docker 20.10 answers 500 "a disk usage operation is already running" to a /system/df that comes during another's walk.
    const usages = await Promise.all(Array.from({ length: 6 }, () => engine.imageDiskUsage()));
    engine.close();

    // None refused: each has the engine's account (an engine with no image has layers of 0 bytes).
    expect(usages).toEqual(Array.from({ length: 6 }, () => ({ layersBytes: expect.any(Number), images: expect.any(Array) })));
  });

  it('makes its calls in a row on one connection, and closes it once it has waited unused ENGINE_IDLE_CONNECTION_MS', async () => {
    const engine = DockerEngine.fromEnvironment();
    const opened: Socket[] = [];
    const onSocket = (message: unknown): void => void opened.push((message as { socket: Socket }).socket);
    subscribe('net.client.socket', onSocket);
    try {
      for (let call = 0; call < 5; call++) await engine.listContainers(['arvo-rca.test=none']);
      await engine.storage();
    } finally {
      unsubscribe('net.client.socket', onSocket);
    }

    expect(opened.length).toBe(1);
    // What the modem does with each request's options, for its debug log: the pool shows as its name, not every field of its sockets.
    const shown = inspect((engine as unknown as { docker: { modem: object } }).docker.modem, { showHidden: true, depth: null });
    expect(shown).toContain('[http engine agent]');
    expect(shown.length).toBeLessThan(5000);
    expect(opened[0].destroyed).toBe(false);
    await sleep(ENGINE_IDLE_CONNECTION_MS + 500);
    expect(opened[0].destroyed).toBe(true);
    engine.close();
  });
});
