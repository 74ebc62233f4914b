import type { Duplex } from 'node:stream';
import { type CommandRun, releaseChunk } from '@arvo-rca/sandbox';
import type { ContainerHandle, ExecStream } from '../engine/container-handle';
import { FrameDemuxer, type StreamType } from './frame-demuxer';

export interface ContainerExecRequest {
  cmd: string[];
  env?: string[];
  workingDir?: string;
  /** Receives output as it arrives; nothing is buffered here. A payload is freed once the call returns: copy what you keep. */
  onOutput: (type: StreamType, payload: Buffer) => void;
  /** Host-side deadline: the engine can hang too. */
  deadlineMs: number;
}

/** Runs one process in a running container through the engine's exec API, streaming its output. */
export async function runContainerExec(container: ContainerHandle, request: ContainerExecRequest): Promise<CommandRun> {
  const started = Date.now();
  let stream: Duplex | undefined;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), request.deadlineMs);
  });
  const run = async (): Promise<ExecStream> => {
    const exec = await container.exec({ cmd: request.cmd, env: request.env, workingDir: request.workingDir, stdin: false });
    stream = exec.stream;
    const demuxer = new FrameDemuxer(request.onOutput);
    await new Promise<void>((resolve) => {
      stream?.on('data', (chunk: Buffer) => {
        demuxer.push(chunk);
        releaseChunk(chunk);
      });
      stream?.once('end', resolve);
      stream?.once('close', resolve);
      stream?.once('error', () => resolve());
    });
    return exec;
  };
  const running = run();
  running.catch(() => undefined); // Lost the race to the deadline: nobody waits for it any more.
  try {
    const winner = await Promise.race([running, deadline]);
    if (winner === 'deadline') {
      stream?.destroy();
      return { exitCode: undefined, hostDeadlineHit: true, elapsedMs: Date.now() - started };
    }
    return { exitCode: await exitCodeOf(winner), hostDeadlineHit: false, elapsedMs: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

// The stream can end a moment before the engine records the exit code.
async function exitCodeOf(exec: ExecStream): Promise<number | undefined> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const state = await exec.state();
    if (!state.running && typeof state.exitCode === 'number') return state.exitCode;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}
