import { execFile } from 'node:child_process';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { WORKSPACE } from '@arvo-rca/common';
import { DEFAULT_SANDBOX_OPTIONS, envList, NON_INTERACTIVE_ENV, shellCommandPrefix } from '@arvo-rca/sandbox';

const INSPECT_RETRY_MS = 2;

/**
 * The reference the green agent's exec path is held to: a plain dockerode exec (create, start
 * hijacked, demultiplex, wait for the end, inspect the exit code), nothing else around it.
 */
export async function dockerodeExec(container: Docker.Container, cmd: string[], env?: string[]): Promise<number> {
  const exec = await container.exec({ Cmd: cmd, Env: env, AttachStdin: false, AttachStdout: true, AttachStderr: true, Tty: false });
  const stream = await exec.start({ hijack: true, stdin: false });
  const sink = new PassThrough();
  sink.resume();
  container.modem.demuxStream(stream, sink, sink);
  await new Promise<void>((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', () => resolve());
  });
  // The stream can end a moment before the engine records the exit code.
  for (;;) {
    const info = await exec.inspect();
    if (!info.Running && typeof info.ExitCode === 'number') return info.ExitCode;
    await new Promise((resolve) => setTimeout(resolve, INSPECT_RETRY_MS));
  }
}

/** `docker exec <container> <cmd...>` through the CLI, as the Python original ran its commands. */
export function cliExec(containerId: string, cmd: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile('docker', ['exec', containerId, ...cmd], (error) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve(error ? Number(error.code) : 0);
    });
  });
}

/**
 * A task container's spec with the earlier keep-alive, `sleep`, as its main process and no stdin: the
 * baselines that put the workspace in by other ways (a bind mount, one archive call) never feed the
 * main process the workspace, and must not leave it waiting for it.
 */
export function sleepingContainer(spec: Docker.ContainerCreateOptions): Docker.ContainerCreateOptions {
  const keepAliveS = spec.Cmd?.[0] ?? '600';
  return { ...spec, Entrypoint: ['sleep'], Cmd: [keepAliveS], OpenStdin: false, StdinOnce: false };
}

/**
 * A task's commands with none of our code around them: one shell in the container runs them one after
 * another, each as the sandbox's session runs a command (in the workspace, under `timeout` around
 * `bash -lc`, stdin from /dev/null, stderr into stdout, the same environment), its output read through
 * the engine. Resolves with the last command's exit status.
 */
export function bareCommands(container: Docker.Container, commands: readonly string[]): Promise<number> {
  const { commandTimeoutS: timeoutS, killAfterS } = DEFAULT_SANDBOX_OPTIONS;
  const prefix = shellCommandPrefix({ shell: ['bash', '-lc'], timeoutS, killAfterS, useTimeout: true }).join(' ');
  const loop = `for command in "$@"; do (cd ${WORKSPACE} && exec ${prefix} "$command" </dev/null 2>&1); done`;
  return dockerodeExec(container, ['sh', '-c', loop, 'bare-commands', ...commands], envList(NON_INTERACTIVE_ENV));
}
