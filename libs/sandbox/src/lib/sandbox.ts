// The one interface the green agent sees, whichever backend runs the commands.
import type { PassThrough, Readable } from 'node:stream';
import type { CommandResult } from './command/command-result';

type SandboxKind = 'docker' | 'local';

/** The sandbox that runs the tasks, by the SANDBOX value that names it exactly: `local` is bubblewrap, `local-unsafe` plain processes. */
export type SandboxBackendName = 'docker' | 'local' | 'local-unsafe';

/** What one task needs from its sandbox. */
export interface SandboxSpec {
  /** `<source>:<id>`, e.g. `arvo:14368`; the id part names the container. */
  task: string;
  /** The A2A context id of the task; labels the container. */
  contextId: string;
  /** The image of the task (docker backend only). */
  image: string;
  /**
   * Host folder of the task's workspace: copied into the container at `/workspace` (docker), or bound
   * there (local). Its parent is the task folder.
   */
  workspaceDir: string;
  /** Given when the workspace is still being laid out as the sandbox starts; see PendingWorkspace. */
  pendingWorkspace?: PendingWorkspace;
  /** Receives progress lines (image pulls, warnings) for the task log. */
  onProgress?: (line: string) => void;
  /** Receives the figures of its image's pull, as the pull goes (docker backend). */
  onPull?: (pull: PullProgress) => void;
  /** Told once when the task's writes pass its disk limit (bytes or files), or the host's free inodes fall below their floor; the task should end. */
  onDiskLimit?: (detail: string) => void;
  /**
   * How long the sandbox may wait, started, for its task's turn (a task prepared ahead): a container's
   * keep-alive, which ends it after the task's limit, is that much longer. Such a sandbox takes its disk
   * share at its turn (`takeTurn`), not at its start.
   */
  waitS?: number;
}

/**
 * A workspace the host is still laying out while its sandbox starts: a container sandbox makes and starts
 * its container meanwhile and copies the source tree in as the host writes it, instead of after it.
 */
export interface PendingWorkspace {
  /** Settles once `workspaceDir` is complete; when it rejects, the start fails with its reason. */
  ready: Promise<void>;
  /**
   * One folder of the workspace (`src-vul`) as the tar stream the host extracts it from, entries named
   * from the workspace (`src-vul/...`). A container sandbox copies it in on the way and leaves that folder
   * out when it copies the rest; a sandbox that reads the workspace in place drains it. Whoever writes it
   * must stop writing, not wait, once it is closed: a start that fails closes it.
   */
  tree?: { folder: string; tar: Readable };
}

export interface ExecOptions {
  /** In-sandbox limit of this command in seconds; the configured default otherwise. */
  timeoutS?: number;
}

/** Output of a command, capped: head and tail kept, the middle elided with a marker. */
export interface CommandOutput {
  output: string;
  /** Bytes the command printed, stdout and stderr together. */
  outputBytes: number;
  /** Bytes left out of `output`. */
  elidedBytes: number;
}

/** A command the sandbox ran, as the solver is sent it (a timeout: returncode -1 and `timedOut`), with its output's size; or one it refused. */
export type ExecOutcome = ({ kind: 'ran' } & CommandResult & CommandOutput) | { kind: 'rejected'; reason: string };

export interface Sandbox {
  readonly kind: SandboxKind;
  /** Container name (docker) or a name of the same shape (local), for logs. */
  readonly name: string;
  /** Prepares the sandbox; a failed start leaves nothing running. */
  start(): Promise<void>;
  /** Runs one shell command in `/workspace`; never throws for what the command does. */
  exec(command: string, options?: ExecOptions): Promise<ExecOutcome>;
  /**
   * For a sandbox made ahead of its task's turn (`waitS`): takes its disk share now, waiting while the
   * running tasks hold them all; at once for any other. A sandbox made ahead holds no share while it waits,
   * so that tasks waiting for their turn never hold the shares the tasks whose turn it is wait for (that
   * deadlocked an assessment whose disk held fewer shares than its tasks at once and those made ahead).
   */
  takeTurn(): Promise<void>;
  /** Reads a file as the sandbox sees it (e.g. `/workspace/shared/loc.json`). */
  readFile(path: string): Promise<Buffer>;
  /** Removes everything the sandbox runs, also what a start still under way makes (that start then fails); idempotent, and safe after a failed start. */
  stop(): Promise<void>;
}

/** How far the pull of a task's image is: its layers (those on the engine already count as done) and its bytes to download, as far as the registry has told them. */
export interface PullProgress {
  image: string;
  layers: number;
  layersDone: number;
  bytes: number;
  bytesDone: number;
}

/** Who waits for an image's pull: its lines and figures, and the signal on which it stops waiting. */
export interface PullWatch {
  say?: (line: string) => void;
  progress?: (pull: PullProgress) => void;
  /** Once it aborts the watcher leaves; a pull that nobody waits for any more is cancelled. */
  signal?: AbortSignal;
}

/** An image fetched ahead of its task: there (or none needed), or left for the task's own turn since the image budget has no room for it yet. */
export type ImageAhead = 'ready' | 'no-room';

/** Makes the sandboxes of one backend and tracks them, so that shutdown can remove them all. */
export interface SandboxFactory {
  readonly kind: SandboxKind;
  /** What SANDBOX came to on this host (`auto` comes to one of these), for the run record. */
  readonly backend: SandboxBackendName;
  /** Whether commands run in the task's own image, which keeps the original build tree (at `/src`). */
  readonly runsTaskImage: boolean;
  /**
   * The stream to give a sandbox its source tree through as the host extracts it (see PendingWorkspace),
   * when this backend copies the workspace in; none when its sandboxes read the workspace in place.
   */
  treeIntake(): PassThrough | undefined;
  create(spec: SandboxSpec): Sandbox;
  /**
   * Makes `image` be there before a task needs it, sharing the pull a task's start may make of it meanwhile.
   * Within the image budget only: where the budget has no room without removing what remaining tasks need,
   * it pulls nothing and says `no-room`. A backend that runs no images has nothing to do.
   */
  fetchImage(image: string, watch: PullWatch): Promise<ImageAhead>;
  /** What `concurrency` tasks at once would take of the running tasks' disk, when the total holds fewer (DiskShares.outlook). */
  diskOutlook(concurrency: number): Promise<string | undefined>;
  /** Stops every sandbox this factory made that is still running. */
  stopAll(): Promise<void>;
}
