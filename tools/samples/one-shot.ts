import Docker from 'dockerode';
import { PassThrough } from 'node:stream';
import { LABEL_OWNER } from '@arvo-rca/arvo-docker';
import { withDeadline } from '@arvo-rca/sandbox';

export interface OneShotOptions {
  image: string;
  cmd: string[];
  /** Labels besides the owner label; the owner names who may reap the container. */
  owner: string;
  labels?: Record<string, string>;
  timeoutMs?: number;
}

export interface OneShotResult {
  exitCode: number;
  /** stdout and stderr merged in the order the engine delivered them. */
  output: string;
}

/**
 * Runs one command in a fresh, network-less container and removes the container whatever happens.
 * Create and start are separate calls, so a failed start still leaves a handle to remove.
 */
export async function runOneShot(docker: Docker, options: OneShotOptions): Promise<OneShotResult> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const container = await docker.createContainer({
    Image: options.image,
    Cmd: options.cmd,
    Labels: { ...options.labels, [LABEL_OWNER]: options.owner },
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    HostConfig: { NetworkMode: 'none', Init: true },
  });
  try {
    const stream = await container.attach({ stream: true, stdout: true, stderr: true });
    const merged = new PassThrough();
    const chunks: Buffer[] = [];
    merged.on('data', (chunk: Buffer) => chunks.push(chunk));
    container.modem.demuxStream(stream, merged, merged);
    const ended = new Promise<void>((resolve) => stream.on('end', resolve));

    await container.start();
    const { StatusCode } = await withDeadline(
      container.wait(),
      timeoutMs,
      () => new Error(`container of ${options.image} did not finish within ${timeoutMs} ms`),
    );
    await ended;
    return { exitCode: StatusCode, output: Buffer.concat(chunks).toString('utf8') };
  } finally {
    await container.remove({ force: true, v: true });
  }
}
