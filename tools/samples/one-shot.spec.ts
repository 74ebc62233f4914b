import { randomUUID } from 'node:crypto';
import { createDockerClient, ownerFilter } from '@arvo-rca/arvo-docker';
import { describeWithDocker, sampleImageTag } from '@arvo-rca/arvo-docker/testing';
import { runOneShot } from './one-shot';

describeWithDocker('runOneShot against a sample image', () => {
  const docker = createDockerClient();
  const owner = `test-${randomUUID()}`;

  afterEach(async () => {
    expect(await docker.listContainers({ all: true, filters: ownerFilter(owner) })).toEqual([]);
  });

  it('reproduces the crash: the ASan report and a non-zero exit code, then removes the container', async () => {
    const result = await runOneShot(docker, { image: sampleImageTag('1'), cmd: ['arvo'], owner });

    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain('ERROR: AddressSanitizer: heap-buffer-overflow');
    expect(result.output).toMatch(/#0 0x[0-9a-f]+ in tlv_cursor_be32 \/src\/tlvkit\/src\/cursor\.c:\d+/);
  });

  it('merges stdout and stderr in the order they were written, with the exit code', async () => {
    const script = 'echo out; sleep 0.2; echo err >&2; sleep 0.2; echo out again';
    const result = await runOneShot(docker, { image: sampleImageTag('1'), cmd: ['bash', '-c', script], owner });

    expect(result).toEqual({ exitCode: 0, output: 'out\nerr\nout again\n' });
  });

  it('removes the container when the command outlives its deadline', async () => {
    await expect(runOneShot(docker, { image: sampleImageTag('1'), cmd: ['sleep', '30'], owner, timeoutMs: 500 })).rejects.toThrow(
      /did not finish within 500 ms/,
    );
  });

  it('fails clearly on a missing image and leaves nothing behind', async () => {
    await expect(runOneShot(docker, { image: 'arvo-rca-sample:does-not-exist', cmd: ['true'], owner })).rejects.toThrow(
      /no such image/i, // Docker: "No such image"; podman: "no such image: ... image not known"
    );
  });
});
