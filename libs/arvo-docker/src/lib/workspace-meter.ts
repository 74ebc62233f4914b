import type Docker from 'dockerode';
import { WORKSPACE } from '@arvo-rca/common';
import { runContainerExec } from './container-exec';
import { removeContainer } from './container-removal';
import { HeadTailCap } from './output-cap';
import { engineReason, SandboxError } from './sandbox-error';

const MEASURE_DEADLINE_MS = 60_000;

/**
 * A task's disk meter (`meterContainerSpec`): how many bytes the task's workspace volume holds, by the
 * `du` of a container the solver cannot reach. The engine's `SizeRw` counts the rest of the task's writes.
 */
export class WorkspaceMeter {
  private constructor(private readonly container: Docker.Container) {}

  /** Creates and starts the meter; one that cannot start is removed again. */
  static async start(docker: Docker, spec: Docker.ContainerCreateOptions): Promise<WorkspaceMeter> {
    const container = await docker.createContainer(spec).catch((error: unknown) => {
      throw new SandboxError('CONTAINER_CREATE_FAILED', `creating the disk meter ${spec.name} failed: ${engineReason(error)}`, { cause: error });
    });
    try {
      await container.start();
    } catch (error) {
      await removeContainer(container).catch(() => undefined);
      throw new SandboxError('CONTAINER_START_FAILED', `starting the disk meter ${spec.name} failed: ${engineReason(error)}`, { cause: error });
    }
    return new WorkspaceMeter(container);
  }

  /**
   * The bytes the workspace holds. `du` prints its total even when a file vanished under it (and then
   * exits 1): the total is what counts.
   */
  async bytes(): Promise<number> {
    const printed = { stdout: new HeadTailCap(4096), stderr: new HeadTailCap(4096) };
    const run = await runContainerExec(this.container, { cmd: ['du', '-s', '-x', '-k', WORKSPACE], onOutput: (type, payload) => printed[type].write(payload), deadlineMs: MEASURE_DEADLINE_MS });
    const total = /^(\d+)\s/.exec(printed.stdout.finish().output);
    if (!total) {
      const why = run.hostDeadlineHit ? 'no answer' : `exit ${run.exitCode ?? 'none'}: ${printed.stderr.finish().output.trim().slice(-200)}`;
      throw new SandboxError('EXEC_FAILED', `the disk meter's du gave no total (${why})`);
    }
    return Number(total[1]) * 1024;
  }

  remove(): Promise<void> {
    return removeContainer(this.container);
  }
}
