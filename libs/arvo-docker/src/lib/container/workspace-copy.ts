import { Readable } from 'node:stream';
import { create as createTar } from 'tar';
import { WORKSPACE } from '@arvo-rca/common';
import { closedBeforeEnd, engineReason, SandboxError, watchStreamFailure, withDeadline } from '@arvo-rca/sandbox';
import type { ContainerBoot } from './container-boot';
import type { ContainerHandle } from '../engine/container-handle';
import { ContainerTar } from './container-tar';

/** A task's workspace on its way into its container: the source tree as the host writes it, then the rest. */
export interface WorkspaceCopy {
  /** Copies the rest of the finished workspace (all of it but the tree's folder); the copy is complete once it settles. */
  complete(): Promise<void>;
  /** Stops what is under way: the start failed. */
  close(): void;
}

/**
 * Begins copying a task's workspace into its running container, as a streamed tar: nothing the solver
 * writes ever lands on the host, and the engine needs no access to the green agent's disk (a remote
 * engine, a gateway, a green agent in a container). The image's own GNU tar, run by the container's main
 * process, unpacks it when the image has one (ContainerTar); otherwise the engine's archive API does,
 * which needs nothing of the image. Entries belong to root and carry no set-id bits; links are archived
 * as links, so they resolve inside the container to the container's own files. `tree`, a folder of the
 * workspace as the host extracts it, is sent at once, as it comes: this settles once all of it went in.
 */
export async function beginWorkspaceCopy(
  container: ContainerHandle,
  boot: ContainerBoot,
  workspaceDir: string,
  tree: { folder: string; tar: Readable } | undefined,
  deadlineMs: number,
  note: (line: string) => void,
): Promise<WorkspaceCopy> {
  const inside = await ContainerTar.begin(boot, deadlineMs);
  if (!inside) {
    note("the image has no GNU tar: the workspace goes in through the engine's archive API");
    if (tree) await copyTreeIn(container, tree.tar, deadlineMs);
    return { complete: () => copyWorkspaceIn(container, workspaceDir, deadlineMs, tree?.folder), close: () => undefined };
  }
  if (tree)
    await inside.feed(tree.tar).catch((error: unknown) => {
      inside.close();
      throw error;
    });
  return {
    complete: async () => {
      const packer = packWorkspace(workspaceDir, tree?.folder);
      await inside.finish(packer.output).catch((error: unknown) => {
        packer.kill();
        throw error;
      });
      await packed(packer, workspaceDir);
    },
    close: () => inside.close(),
  };
}

/** Copies a task's workspace folder (but `leaveOut`, when given) into its container at `/workspace` through the engine's archive API. */
async function copyWorkspaceIn(container: ContainerHandle, workspaceDir: string, deadlineMs: number, leaveOut?: string): Promise<void> {
  const packer = packWorkspace(workspaceDir, leaveOut);
  const copy = container.writeArchive(packer.output, WORKSPACE).catch((error: unknown) => {
    packer.kill();
    throw new SandboxError('WORKSPACE_COPY_FAILED', `the engine refused the workspace: ${engineReason(error)}`, { cause: error });
  });
  await withDeadline(copy, deadlineMs, () => {
    packer.kill();
    return new SandboxError('WORKSPACE_COPY_FAILED', `copying the workspace in took longer than ${Math.round(deadlineMs / 1000)} s`);
  });
  await packed(packer, workspaceDir);
}

async function packed(packer: Packer, workspaceDir: string): Promise<void> {
  const code = await packer.done;
  if (code !== 0) throw new SandboxError('WORKSPACE_COPY_FAILED', `packing ${workspaceDir} failed: ${packer.errors().trim() || 'packing stopped'}`);
}

/**
 * Copies a tar stream into the container at `/workspace` as it comes, through the archive API: the source
 * tree as the host extracts it, so that the engine writes it beside the host instead of after it. The
 * stream is closed when the copy fails or runs out of time, so that its writer stops instead of waiting on it.
 */
async function copyTreeIn(container: ContainerHandle, tar: Readable, deadlineMs: number): Promise<void> {
  const failure = watchStreamFailure(tar, "the source tree's stream");
  // Closed already: no request is sent at all.
  if (closedBeforeEnd(tar)) await failure.failed;
  const abort = new AbortController();
  const copy = container.writeArchive(tar, WORKSPACE, abort.signal).catch((error: unknown) => {
    throw new SandboxError('WORKSPACE_COPY_FAILED', `the engine refused the source tree: ${engineReason(error)}`, { cause: error });
  });
  try {
    const late = (): SandboxError =>
      new SandboxError('WORKSPACE_COPY_FAILED', `copying the source tree in took longer than ${Math.round(deadlineMs / 1000)} s`);
    await withDeadline(Promise.race([copy, failure.failed]), deadlineMs, late);
  } catch (error) {
    // Out of time, or its stream broke or was closed before its end: the request would wait for the rest forever.
    abort.abort();
    tar.destroy();
    throw error;
  } finally {
    failure.off();
  }
}

interface Packer {
  output: Readable;
  /** Settles with 0 once all is packed, -1 when packing failed or was stopped. */
  done: Promise<number>;
  errors(): string;
  kill(): void;
}

/**
 * The workspace packed in process, but `leaveOut`, a folder right under it that went in already (the tree, as
 * the host extracted it): in the green agent that leaves the few other files (the crash report, the answer's
 * folder). A GNU tar child would cost more there: Node forks the whole green agent on the main thread to
 * start one, which stops its event loop for about 5 ms per 100 MiB it holds.
 */
function packWorkspace(workspaceDir: string, leaveOut?: string): Packer {
  const under = (path: string): boolean => leaveOut !== undefined && (path === `./${leaveOut}` || path.startsWith(`./${leaveOut}/`));
  let failure = '';
  const pack = createTar(
    {
      cwd: workspaceDir,
      filter: (path) => !under(path),
      // Entries belong to root and carry no set-id bits, whoever the green agent runs as.
      onWriteEntry: (entry) => {
        if (!entry.stat) return;
        entry.stat.uid = 0;
        entry.stat.gid = 0;
        entry.stat.mode &= ~0o6000;
      },
    },
    ['.'],
  );
  const output = Readable.from(pack);
  const done = new Promise<number>((resolve) => {
    output.once('error', (error: Error) => {
      failure = error.message;
      resolve(-1);
    });
    output.once('end', () => resolve(0));
  });
  return { output, done, errors: () => failure, kill: () => output.destroy() };
}
