import { randomUUID } from 'node:crypto';
import { createDockerClient, LABEL_OWNER } from '@arvo-rca/arvo-docker';
import { describeWithDocker, sampleImageTag } from '@arvo-rca/arvo-docker/testing';
import type Docker from 'dockerode';
import { bareCommands, cliExec, dockerodeExec } from './direct-exec';

describeWithDocker('the reference exec paths', () => {
  const docker = createDockerClient();
  const owner = `bench-direct-exec-${randomUUID()}`;
  let container: Docker.Container;

  beforeAll(async () => {
    container = await docker.createContainer({
      Image: sampleImageTag('1'),
      Entrypoint: ['sleep'],
      Cmd: ['120'],
      Labels: { [LABEL_OWNER]: owner },
      // The workspace, as a task container has one.
      HostConfig: { NetworkMode: 'none', Tmpfs: { '/workspace': '' } },
    });
    await container.start();
  });

  afterAll(async () => {
    await container?.remove({ force: true });
    expect(await docker.listContainers({ all: true, filters: { label: [`${LABEL_OWNER}=${owner}`] } })).toEqual([]);
  });

  it('returns the exit code of the command, by plain dockerode', async () => {
    expect(await dockerodeExec(container, ['true'])).toBe(0);
    expect(await dockerodeExec(container, ['sh', '-c', 'echo noise; echo more >&2; exit 3'])).toBe(3);
  });

  it('returns the exit code of the command, by the docker CLI', async () => {
    expect(await cliExec(container.id, ['true'])).toBe(0);
    expect(await cliExec(container.id, ['sh', '-c', 'exit 5'])).toBe(5);
  });

  it("runs a task's commands one after another as the session does: in the workspace, a login bash under timeout, the quiet environment", async () => {
    const heredoc = "cat > /tmp/bare-doc <<'EOF'\ntwo\nlines\nEOF";
    const commands = [
      'pwd > /tmp/bare',
      'shopt -q login_shell && echo login >> /tmp/bare',
      'cat /proc/$PPID/comm >> /tmp/bare',
      'echo "$PAGER" >> /tmp/bare',
      heredoc,
      'exit 4',
    ];
    expect(await bareCommands(container, commands)).toBe(4);
    const expected = ['/workspace', 'login', 'timeout', 'cat'].join('\n');
    expect(
      await dockerodeExec(container, [
        'sh',
        '-c',
        `test "$(cat /tmp/bare)" = '${expected}' && test "$(cat /tmp/bare-doc)" = 'two
lines'`,
      ]),
    ).toBe(0);
  });
});
