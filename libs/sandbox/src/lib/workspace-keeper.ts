import type Docker from 'dockerode';
import { WORKSPACE } from '@arvo-rca/common';
import { runContainerExec } from './container-exec';
import { removeContainer } from './container-removal';
import { HeadTailCap } from './output-cap';
import { engineReason, SandboxError } from './sandbox-error';

const MEASURE_DEADLINE_MS = 60_000;

/**
 * A task's keeper (`keeperContainerSpec`): a second container of the task's image that holds the task's
 * workspace volume beside the task's own container, and that the solver never reaches.
 * - The workspace goes in through it: an engine locks a container while it writes an archive into it, so
 *   the task's container starts meanwhile instead of after the copy. It needs no start for that.
 * - Once started, its `du` tells the disk watchdog how many bytes the workspace holds: the image's own
 *   `du`, whatever the solver does to its container.
 */
export class WorkspaceKeeper {
  private constructor(readonly container: Docker.Container) {}

  static async create(docker: Docker, spec: Docker.ContainerCreateOptions): Promise<WorkspaceKeeper> {
    const container = await docker.createContainer(spec).catch((error: unknown) => {
      throw new SandboxError('CONTAINER_CREATE_FAILED', `creating the workspace keeper ${spec.name} failed: ${engineReason(error)}`, { cause: error });
    });
    return new WorkspaceKeeper(container);
  }

  async start(): Promise<void> {
    await this.container.start().catch((error: unknown) => {
      throw new SandboxError('CONTAINER_START_FAILED', `starting the workspace keeper failed: ${engineReason(error)}`, { cause: error });
    });
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
      throw new SandboxError('EXEC_FAILED', `the workspace keeper's du gave no total (${why})`);
    }
    return Number(total[1]) * 1024;
  }

  remove(): Promise<void> {
    return removeContainer(this.container);
  }
}
