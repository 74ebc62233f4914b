import { WORKSPACE } from '@arvo-rca/common';
import { type SandboxOptions } from '@arvo-rca/sandbox';
import { bootCommand } from './container-boot';
import type { ContainerCreateSpec } from '../engine/container-handle';
import { LABEL_CONTEXT, LABEL_OWNER, LABEL_TASK, LABEL_TASK_FOLDER } from '../engine/labels';

/**
 * The capabilities a task container keeps after `CapDrop: ALL`: what building and running C/C++
 * projects as root needs, and no more.
 * - CHOWN, FOWNER, FSETID: `make install`, `tar`, `cp -a` and `chmod` on files root does not own and
 *   keeping set-id bits. Nothing of the container's files is on the host (the workspace is copied in),
 *   so a set-id file made in here gives nobody anything outside.
 * - DAC_OVERRIDE: root writing into files and folders of other uids (build trees of the image).
 * - SETUID, SETGID: build and test scripts that drop to another user (su, runuser, setpriv).
 * - KILL: signalling processes of another uid started by such scripts (and cleaning them up on timeout).
 * Dropped among Docker's defaults: NET_RAW and NET_BIND_SERVICE (no network), MKNOD, SYS_CHROOT,
 * SETPCAP, SETFCAP and AUDIT_WRITE. Sanitizers need none of them (LeakSanitizer's same-uid ptrace included).
 */
export const BUILD_CAPABILITIES = ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID'] as const;

export interface TaskContainerInput {
  name: string;
  image: string;
  /** Host path of the task's folder, labelled so that a reaper can remove it with the container. */
  taskFolder: string;
  owner: string;
  task: string;
  contextId: string;
  options: SandboxOptions;
  /** Ask the engine to limit the container's disk (only some storage drivers can). */
  storageLimit: boolean;
  /** How long the container may wait for its task's turn before the task's limit begins (SandboxSpec.waitS). */
  waitS?: number;
}

/** The create options of a task's container: hardened, network-less, limited, and labelled as ours. */
export function taskContainerSpec(input: TaskContainerInput): ContainerCreateSpec {
  const { options } = input;
  // The main process takes the workspace on its stdin, then keeps the container alive (ContainerBoot). The
  // keep-alive ends by itself after the task's limit plus a margin (and its wait for its turn), so that a crashed assessor leaves
  // nothing running for long; the stopped container is removed by its sandbox or by the reaper.
  const keepAliveS = (input.waitS ?? 0) + options.taskTimeoutS + options.keepAliveMarginS;
  return {
    name: input.name,
    Image: input.image,
    ...bootCommand(keepAliveS),
    WorkingDir: WORKSPACE,
    Labels: { [LABEL_OWNER]: input.owner, [LABEL_TASK]: input.task, [LABEL_CONTEXT]: input.contextId, [LABEL_TASK_FOLDER]: input.taskFolder },
    Tty: false,
    // Closed for good once the attachment that fed it ends.
    OpenStdin: true,
    StdinOnce: true,
    AttachStdin: false,
    AttachStdout: false,
    AttachStderr: false,
    HostConfig: {
      Init: true,
      // Never AutoRemove: an engine may remove such a container in the middle of its restart (see docs/sandbox.md,
      // "Restart and AutoRemove"), and the restart is how a task's leftover processes are ended.
      AutoRemove: false,
      NetworkMode: 'none',
      Memory: options.memoryBytes,
      MemorySwap: options.memoryBytes,
      PidsLimit: options.pids,
      NanoCpus: Math.round(options.cpus * 1e9),
      CpuShares: options.cpuShares,
      CapDrop: ['ALL'],
      CapAdd: [...BUILD_CAPABILITIES],
      SecurityOpt: ['no-new-privileges'],
      // No mounts: the workspace is copied in, so the engine needs nothing of this host's disk.
      ...(input.storageLimit ? { StorageOpt: { size: String(options.diskBytes) } } : {}),
    },
  };
}
