// The sandbox contract both backends implement, and the local backend (bubblewrap, or plain processes by
// name only): the interface, its options and errors, the injection tokens the green agent asks for, what a
// command's run shares on every backend (its shell, its guard, its capped output), and the owners of what
// a green agent makes. The Docker backend is @arvo-rca/arvo-docker.
export { SANDBOX_FACTORY, SANDBOX_OPTIONS, SANDBOX_OWNER } from './lib/sandbox-tokens';
export type {
  CommandOutput,
  ExecOptions,
  ExecOutcome,
  ImageAhead,
  PendingWorkspace,
  PullProgress,
  PullWatch,
  Sandbox,
  SandboxBackendName,
  SandboxFactory,
  SandboxKind,
  SandboxSpec,
} from './lib/sandbox';
export { engineReason, ImagePullError, SandboxError, type SandboxErrorCode } from './lib/sandbox-error';
export {
  DEFAULT_SANDBOX_OPTIONS,
  defaultContainerCpus,
  type InodesFloor,
  parseInodesFloor,
  parseMemory,
  resolveSandboxOptions,
  SANDBOX_CHOICES,
  type SandboxChoice,
  type SandboxOptions,
  type SandboxOptionsInput,
} from './lib/sandbox-options';
export { chooseSandbox, type SandboxBackend, type SandboxHost } from './lib/local/sandbox-choice';
export { containerName } from './lib/sandbox-name';
export { DiskShares, workspaceDiskShares, type DiskShare, type DiskTotal, type DiskTotalSource } from './lib/disk/disk-shares';
// What bounds each task's writes (bytes and files) and the host's free inodes, on every backend.
export {
  DISK_CHECK_FLOOR_MS,
  DiskWatchdog,
  nextDiskCheckMs,
  type DiskBounds,
  type DiskLimitBreach,
  type DiskMeter,
  type DiskUse,
} from './lib/disk/disk-watchdog';
export { InodeFloor, type InodeCount, type InodePlace, type InodeSource } from './lib/disk/inode-floor';
export { countFolder, formatCount, type FolderCount } from './lib/disk/file-count';
export { FolderCounter, type FolderUse } from './lib/disk/folder-counter';
// A command's run, on every backend.
export { type CommandResult, TIMED_OUT_RETURNCODE } from './lib/command/command-result';
export { CommandGuard, type GuardVerdict } from './lib/command/command-guard';
export { commandOutcome, type CommandRun, envList, EXEC_MARKER, NON_INTERACTIVE_ENV, shellCommandPrefix } from './lib/command/exec-command';
export { HeadTailCap, releaseChunk } from './lib/command/output-cap';
export { withDeadline } from './lib/command/deadline';
export { closedBeforeEnd, watchStreamFailure } from './lib/command/stream-failure';
// Children started off this process's main thread.
export { ChildSpawner, SpawnedChild, type ChildEnd } from './lib/spawn/child-spawner';
// The local backend.
export { LocalSandboxFactory } from './lib/local/local-sandbox-factory';
export { NO_ISOLATION_WARNING, type LocalIsolation } from './lib/local/local-sandbox';
export { probeBubblewrap } from './lib/local/bubblewrap';
// Owners: who made a container or a task folder, so that a restarted agent reaps a dead one's.
export { currentOwner, formatOwnerId, ownerIsAlive, parseOwnerId } from './lib/owner/owner-id';
export { ownerHost } from './lib/owner/host-identity';
export { markTaskFolder, TASK_OWNER_FILE, taskFolderOwner } from './lib/owner/task-folder-owner';
