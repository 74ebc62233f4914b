// The sandbox contract both backends implement, and the local backend (bubblewrap, or plain processes by
// name only): the interface, its options and errors, the injection tokens the green agent asks for, what a
// command's run shares on every backend (its shell, its guard, its capped output), and the owners of what
// a green agent makes. The Docker backend is @arvo-rca/arvo-docker.
export { SANDBOX_FACTORY, SANDBOX_OPTIONS, SANDBOX_OWNER } from './lib/sandbox-tokens';
export type {
  ExecOptions,
  ExecOutcome,
  ImageAhead,
  PendingWorkspace,
  PullProgress,
  PullWatch,
  Sandbox,
  SandboxBackendName,
  SandboxFactory,
  SandboxSpec,
} from './lib/sandbox';
export { engineReason, ImagePullError, SandboxError } from './lib/sandbox-error';
export {
  DEFAULT_SANDBOX_OPTIONS,
  defaultContainerCpus,
  parseInodesFloor,
  parseMemory,
  resolveSandboxOptions,
  SANDBOX_CHOICES,
  type SandboxChoice,
  type SandboxOptions,
  type SandboxOptionsInput,
} from './lib/sandbox-options';
export { chooseSandbox, type SandboxHost } from './lib/local/sandbox-choice';
export { containerName } from './lib/sandbox-name';
export { DiskShares, type DiskShare, type DiskTotal } from './lib/disk/disk-shares';
// What bounds each task's writes (bytes and files) and the host's free inodes, on every backend.
export { DiskWatchdog, type DiskMeter, type DiskUse } from './lib/disk/disk-watchdog';
export { InodeFloor } from './lib/disk/inode-floor';
export { formatCount } from './lib/disk/file-count';
export { FolderCounter } from './lib/disk/folder-counter';
// A command's run, on every backend.
export { type CommandResult, TIMED_OUT_RETURNCODE } from './lib/command/command-result';
export { CommandGuard } from './lib/command/command-guard';
export { commandOutcome, type CommandRun, envList, EXEC_MARKER, NON_INTERACTIVE_ENV, shellCommandPrefix } from './lib/command/exec-command';
export { HeadTailCap, releaseChunk } from './lib/command/output-cap';
export { withDeadline } from './lib/command/deadline';
export { closedBeforeEnd, watchStreamFailure } from './lib/command/stream-failure';
// Children started off this process's main thread.
export { ChildSpawner, SpawnedChild } from './lib/spawn/child-spawner';
// The local backend.
export { LocalSandboxFactory } from './lib/local/local-sandbox-factory';
export { NO_ISOLATION_WARNING } from './lib/local/local-sandbox';
export { probeBubblewrap } from './lib/local/bubblewrap';
// Owners: who made a container or a task folder, so that a restarted agent reaps a dead one's.
export { currentOwner, formatOwnerId, ownerIsAlive, parseOwnerId } from './lib/owner/owner-id';
export { ownerHost } from './lib/owner/host-identity';
export { markTaskFolder, TASK_OWNER_FILE, taskFolderOwner } from './lib/owner/task-folder-owner';
