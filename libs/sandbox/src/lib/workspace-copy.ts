import type Docker from 'dockerode';
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { WORKSPACE } from '@arvo-rca/common';
import { HeadTailCap } from './output-cap';
import { engineReason, SandboxError } from './sandbox-error';

/**
 * Copies a task's workspace folder into its container at `/workspace` through the engine's archive API,
 * as a streamed tar: nothing the solver writes ever lands on the host, and the engine needs no access to
 * the green agent's disk (a remote engine, a gateway, a green agent in a container), nor anything of the
 * image (no tar in it). Entries belong to root and carry no set-id bits; links are archived as links, so
 * they resolve inside the container to the container's own files. The tar is made by GNU tar in a child
 * process, off the event loop and about twice as fast as node-tar here. (An in-container `tar` fed
 * through an exec was measured too: no faster, and it needs tar in the image.)
 */
export async function copyWorkspaceIn(container: Docker.Container, workspaceDir: string, deadlineMs: number, leaveOut?: string): Promise<void> {
  const packer = packWorkspace(workspaceDir, leaveOut);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      packer.kill();
      reject(new SandboxError('WORKSPACE_COPY_FAILED', `copying the workspace in took longer than ${Math.round(deadlineMs / 1000)} s`));
    }, deadlineMs);
  });
  const copy = container.putArchive(packer.output as NodeJS.ReadableStream, { path: WORKSPACE }).catch((error: unknown) => {
    packer.kill();
    throw new SandboxError('WORKSPACE_COPY_FAILED', `the engine refused the workspace: ${engineReason(error)}`, { cause: error });
  });
  try {
    await Promise.race([copy, deadline]);
  } finally {
    clearTimeout(timer);
  }
  const packed = await packer.done;
  if (packed !== 0) throw new SandboxError('WORKSPACE_COPY_FAILED', `packing ${workspaceDir} failed: ${packer.errors().trim() || `tar exited with ${packed}`}`);
}

/**
 * Copies a tar stream into the container at `/workspace` as it comes: the source tree as the host
 * extracts it, so that the engine writes it beside the host instead of after it. The stream is closed
 * when the copy fails or runs out of time, so that its writer stops instead of waiting on it.
 */
export async function copyTreeIn(container: Docker.Container, tar: Readable, deadlineMs: number): Promise<void> {
  const closedEarly = (): SandboxError => new SandboxError('WORKSPACE_COPY_FAILED', "the source tree's stream was closed before its end");
  // Closed already (its writer failed before the copy began): no 'close' would come to end the request.
  if (tar.destroyed && !tar.readableEnded) throw closedEarly();
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onError: ((error: Error) => void) | undefined;
  let onClose: (() => void) | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new SandboxError('WORKSPACE_COPY_FAILED', `copying the source tree in took longer than ${Math.round(deadlineMs / 1000)} s`));
    }, deadlineMs);
  });
  const broken = new Promise<never>((_resolve, reject) => {
    onError = (error) => {
      abort.abort();
      reject(new SandboxError('WORKSPACE_COPY_FAILED', `the source tree's stream broke: ${error.message}`, { cause: error }));
    };
    // Closed before its end (its writer failed, the start gave up): the request would wait for the rest forever.
    onClose = () => {
      if (tar.readableEnded) return;
      abort.abort();
      reject(closedEarly());
    };
    tar.once('error', onError);
    tar.once('close', onClose);
  });
  const copy = container.putArchive(tar as NodeJS.ReadableStream, { path: WORKSPACE, abortSignal: abort.signal }).catch((error: unknown) => {
    throw new SandboxError('WORKSPACE_COPY_FAILED', `the engine refused the source tree: ${engineReason(error)}`, { cause: error });
  });
  try {
    await Promise.race([copy, deadline, broken]);
  } catch (error) {
    tar.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
    if (onError) tar.off('error', onError);
    if (onClose) tar.off('close', onClose);
  }
}

interface Packer {
  output: Readable;
  /** Settles with tar's exit code (-1 when it could not run or was killed). */
  done: Promise<number>;
  errors(): string;
  kill(): void;
}

/** `leaveOut`: a folder right under the workspace that is not packed (it went in already). */
function packWorkspace(workspaceDir: string, leaveOut?: string): Packer {
  const exclude = leaveOut ? ['--anchored', '--no-wildcards', `--exclude=./${leaveOut}`] : [];
  const child = spawn('tar', ['-C', workspaceDir, ...exclude, '--owner=0', '--group=0', '--numeric-owner', '--mode=ug-s', '-c', '-f', '-', '.'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr = new HeadTailCap(4096);
  child.stderr.on('data', (chunk: Buffer) => stderr.write(chunk));
  const done = new Promise<number>((resolve) => {
    child.once('error', (error) => {
      stderr.write(Buffer.from(`cannot run tar: ${error.message}`));
      resolve(-1);
    });
    child.once('close', (code) => resolve(code ?? -1));
  });
  return { output: child.stdout, done, errors: () => stderr.finish().output, kill: () => child.kill('SIGKILL') };
}
