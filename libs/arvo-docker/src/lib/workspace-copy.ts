import type Docker from 'dockerode';
import { spawn } from 'node:child_process';
import type { Duplex, Readable } from 'node:stream';
import { SANDBOX_WORKSPACE } from './command-guard';
import { FrameDemuxer } from './frame-demuxer';
import { HeadTailCap } from './output-cap';
import { engineReason, SandboxError } from './sandbox-error';

// Unpacks the stream at /workspace, as root (the archive says uid 0); without tar in the image it
// exits 127 and the engine's archive API takes over. Existing folders keep their own metadata.
const UNPACK = `command -v tar >/dev/null 2>&1 || exit 127
mkdir -p "$0" && exec tar -x -f - -C "$0" --no-overwrite-dir`;
const NO_TAR = 127;

/**
 * Copies a task's workspace folder into its container at `/workspace`, streamed as a tar: nothing the
 * solver writes ever lands on the host, and the engine needs no access to the green agent's disk (a
 * remote engine, a gateway, a green agent in a container). Entries belong to root and carry no set-id
 * bits. The tar is made by GNU tar in a child process, off the event loop and about twice as fast as
 * node-tar here; it is unpacked by a `tar` in the container, which runs beside other execs, and where
 * the image has none, by the engine's archive API, which holds the container while it writes.
 */
export async function copyWorkspaceIn(container: Docker.Container, workspaceDir: string, deadlineMs: number): Promise<void> {
  const viaExec = await withDeadline(unpackInContainer(container, workspaceDir), deadlineMs, 'copying the workspace in');
  if (viaExec === 'no-tar') await withDeadline(putArchive(container, workspaceDir), deadlineMs, 'copying the workspace in');
}

async function unpackInContainer(container: Docker.Container, workspaceDir: string): Promise<'done' | 'no-tar'> {
  const exec = await container.exec({
    Cmd: ['sh', '-c', UNPACK, SANDBOX_WORKSPACE],
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
  });
  const stream: Duplex = await exec.start({ hijack: true, stdin: true });
  const said = new HeadTailCap(4096);
  const demuxer = new FrameDemuxer((_type, payload) => said.write(payload));
  stream.on('data', (chunk: Buffer) => demuxer.push(chunk));
  const ended = new Promise<void>((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', () => resolve());
  });
  const packer = packWorkspace(workspaceDir);
  // The exec's stdin ends with the archive, which tells the unpacking tar that it has everything.
  packer.output.pipe(stream);
  const [packed] = await Promise.all([packer.done, ended]);
  const { ExitCode } = await exec.inspect();
  if (ExitCode === NO_TAR) return 'no-tar';
  if (packed !== 0) throw new SandboxError('WORKSPACE_COPY_FAILED', `packing ${workspaceDir} failed: ${packer.errors().trim() || `tar exited with ${packed}`}`);
  if (ExitCode !== 0) throw new SandboxError('WORKSPACE_COPY_FAILED', `unpacking the workspace failed (exit ${ExitCode ?? 'none'}): ${said.finish().output.trim()}`);
  return 'done';
}

async function putArchive(container: Docker.Container, workspaceDir: string): Promise<void> {
  const packer = packWorkspace(workspaceDir);
  await container.putArchive(packer.output as NodeJS.ReadableStream, { path: SANDBOX_WORKSPACE }).catch((error: unknown) => {
    throw new SandboxError('WORKSPACE_COPY_FAILED', `the engine refused the workspace: ${engineReason(error)}`, { cause: error });
  });
  const packed = await packer.done;
  if (packed !== 0) throw new SandboxError('WORKSPACE_COPY_FAILED', `packing ${workspaceDir} failed: ${packer.errors().trim() || `tar exited with ${packed}`}`);
}

interface Packer {
  output: Readable;
  /** Settles with tar's exit code (-1 when it could not run). */
  done: Promise<number>;
  errors(): string;
}

// Links are archived as links: they resolve inside the container, to the container's own files.
function packWorkspace(workspaceDir: string): Packer {
  const child = spawn('tar', ['-C', workspaceDir, '--owner=0', '--group=0', '--numeric-owner', '--mode=ug-s', '-c', '-f', '-', '.'], {
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
  return { output: child.stdout, done, errors: () => stderr.finish().output };
}

async function withDeadline<T>(work: Promise<T>, deadlineMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new SandboxError('WORKSPACE_COPY_FAILED', `${what} took longer than ${Math.round(deadlineMs / 1000)} s`)), deadlineMs);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
