import type { Duplex, Readable } from 'node:stream';

/** What the engine says of a container's main process. */
export interface ContainerState {
  running: boolean;
  exitCode?: number;
}

/** A process to run in a running container through the engine's exec API. */
export interface ExecRequest {
  cmd: string[];
  env?: string[];
  workingDir?: string;
  /** Whether the stream takes input too; its output is always attached. */
  stdin: boolean;
}

/** An exec under way: its hijacked stream (output framed as the engine frames it), and its state. */
export interface ExecStream {
  stream: Duplex;
  state(): Promise<ContainerState>;
}

/**
 * One container on the engine (see DockerEngine): what the sandbox does with it. Failures are the
 * engine's own errors, with its `statusCode` (404 gone, 304 stopped already, 409 busy).
 */
export interface ContainerHandle {
  readonly id: string;
  start(): Promise<void>;
  /** Kills it at once (no grace period). */
  stop(): Promise<void>;
  /** Its main process's stdin, stdout and stderr, as one hijacked stream. */
  attach(): Promise<Duplex>;
  exec(request: ExecRequest): Promise<ExecStream>;
  state(): Promise<ContainerState>;
  /** What it has written to its filesystem (the engine's `SizeRw`), when the engine says. */
  writtenBytes(): Promise<number | undefined>;
  /** Its writable layer's folder on the engine's host (overlay's `UpperDir`), when its storage driver has one. */
  layerDir(): Promise<string | undefined>;
  /** How many paths the engine lists as changed in its filesystem (`/changes`), counted. */
  changeCount(): Promise<number>;
  /** `path` as a tar stream, through the archive API. */
  readArchive(path: string): Promise<Readable>;
  /** Unpacks a tar stream at `path`, through the archive API. */
  writeArchive(tar: Readable, path: string, signal?: AbortSignal): Promise<void>;
  /** With force and its anonymous volumes. */
  remove(): Promise<void>;
}

/** A container as the engine lists it. */
export interface ContainerSummary {
  id: string;
  /** Its name without the leading slash, or its id when it has none. */
  name: string;
  labels: Record<string, string>;
}

/** One line of an image pull's progress, as the engine streams it. */
export interface PullEvent {
  status?: string;
  id?: string;
  /** Bytes of a layer downloaded (or extracted) so far, of its total. */
  progressDetail?: { current?: number; total?: number };
  error?: string;
  errorDetail?: { message?: string };
}

/** The create options of a container, in the engine's words: what this project asks for. */
export interface ContainerCreateSpec {
  name: string;
  Image: string;
  Entrypoint: string[];
  Cmd: string[];
  WorkingDir: string;
  Labels: Record<string, string>;
  Tty: boolean;
  OpenStdin: boolean;
  StdinOnce: boolean;
  AttachStdin: boolean;
  AttachStdout: boolean;
  AttachStderr: boolean;
  HostConfig: {
    Init: boolean;
    AutoRemove: boolean;
    NetworkMode: string;
    Memory: number;
    MemorySwap: number;
    PidsLimit: number;
    NanoCpus: number;
    CpuShares: number;
    CapDrop: string[];
    CapAdd: string[];
    SecurityOpt: string[];
    StorageOpt?: Record<string, string>;
  };
}
