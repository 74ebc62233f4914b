import type Docker from 'dockerode';
import { randomBytes } from 'node:crypto';
import { WORKSPACE } from '@arvo-rca/common';
import { LABEL_CONTEXT, LABEL_OWNER, LABEL_ROLE, LABEL_TASK, LABEL_TASK_FOLDER, KEEPER_ROLE } from './labels';
import type { SandboxOptions } from './sandbox-options';

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

/** `arvo_<id>_<short-unique>`: two tasks on the same id get two containers. */
export function containerName(task: string, unique: string = randomBytes(4).toString('hex')): string {
  const id = task.slice(task.lastIndexOf(':') + 1).replace(/[^A-Za-z0-9_.-]/g, '_');
  return `arvo_${id}_${unique}`;
}

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
}

/** The create options of a task's container: hardened, network-less, limited, and labelled as ours. */
export function taskContainerSpec(input: TaskContainerInput): Docker.ContainerCreateOptions {
  const { options } = input;
  const labels = taskLabels(input);
  return {
    name: input.name,
    Image: input.image,
    ...keepAlive(options),
    WorkingDir: WORKSPACE,
    Labels: labels,
    Tty: false,
    OpenStdin: false,
    AttachStdin: false,
    AttachStdout: false,
    AttachStderr: false,
    HostConfig: {
      Init: true,
      // Never AutoRemove: an engine may remove such a container in the middle of its restart (see README,
      // "Restart and AutoRemove"), and the restart is how a task's leftover processes are ended.
      AutoRemove: false,
      NetworkMode: 'none',
      Memory: options.memoryBytes,
      MemorySwap: options.memoryBytes,
      PidsLimit: options.pids,
      NanoCpus: Math.round(options.cpus * 1e9),
      CapDrop: ['ALL'],
      CapAdd: [...BUILD_CAPABILITIES],
      SecurityOpt: ['no-new-privileges'],
      // The workspace is a volume of the container's own, made and removed with it: no host path is
      // mounted (the workspace is copied in), and the engine writes the tree into a plain folder about a
      // third faster than into the container's layered filesystem. It goes in through the task's keeper,
      // which also counts its size.
      Mounts: [{ Type: 'volume', Source: '', Target: WORKSPACE, VolumeOptions: { NoCopy: true, Labels: labels, DriverConfig: { Name: 'local', Options: {} } } }],
      ...(input.storageLimit ? { StorageOpt: { size: String(options.diskBytes) } } : {}),
    },
  };
}

/**
 * The create options of a task's keeper (`WorkspaceKeeper`): a second container of the same image, with
 * the task container's workspace volume, that the solver never reaches. Its only process is the
 * keep-alive; it runs nothing but `du`, with the one capability to read every folder.
 */
export function keeperContainerSpec(input: TaskContainerInput, taskContainerId: string): Docker.ContainerCreateOptions {
  return {
    name: `${input.name}_keeper`,
    Image: input.image,
    ...keepAlive(input.options),
    Labels: { ...taskLabels(input), [LABEL_ROLE]: KEEPER_ROLE },
    HostConfig: {
      Init: true,
      AutoRemove: false,
      NetworkMode: 'none',
      Memory: KEEPER_MEMORY_BYTES,
      MemorySwap: KEEPER_MEMORY_BYTES,
      PidsLimit: 16,
      CapDrop: ['ALL'],
      // Reads every folder, whatever mode the solver gave it (`chmod 000` would hide a folder from root without it).
      CapAdd: ['DAC_READ_SEARCH'],
      SecurityOpt: ['no-new-privileges'],
      VolumesFrom: [taskContainerId],
    },
  };
}

const KEEPER_MEMORY_BYTES = 128 * 1024 ** 2;

function taskLabels(input: TaskContainerInput): Record<string, string> {
  return { [LABEL_OWNER]: input.owner, [LABEL_TASK]: input.task, [LABEL_CONTEXT]: input.contextId, [LABEL_TASK_FOLDER]: input.taskFolder };
}

// The keep-alive ends by itself after the task's limit plus a margin, so that a crashed assessor leaves
// nothing running for long; the stopped container is removed by its sandbox or by the reaper.
function keepAlive(options: SandboxOptions): Pick<Docker.ContainerCreateOptions, 'Entrypoint' | 'Cmd'> {
  return { Entrypoint: ['sleep'], Cmd: [String(options.taskTimeoutS + options.keepAliveMarginS)] };
}
