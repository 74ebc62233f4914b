import type { DiskShares, FolderCounter, InodeFloor, Sandbox, SandboxOptions } from '@arvo-rca/sandbox';
import type { DockerEngine } from '../engine/docker-engine';
import type { ImagePuller } from '../images/image-puller';

/** What a DockerSandbox shares with its factory and its start: the engine, the images, and the factory's bounds. */
export interface DockerSandboxContext {
  /** Its engine, whose gate paces container starts and removals (`options.startConcurrency`). */
  engine: DockerEngine;
  images: ImagePuller;
  /** Owner id written into the container's owner label. */
  owner: string;
  options: SandboxOptions;
  /** Whether the engine limits a container's disk (`StorageOpt`); learnt at the first create, shared by one factory. */
  storageLimits: { supported?: boolean };
  /** The running tasks' disk in total, one share per started container; none when nothing bounds it. */
  diskShares?: DiskShares;
  /** The host's free inodes under the engine's data root: no start below it, and the watchdog ends a task once they fall below. */
  inodeFloor?: InodeFloor;
  /** Counts the files of a container's layer from this host for the disk watchdog (a local engine); shared by one factory's tasks. */
  folderCounter?: FolderCounter;
  /** Told once the sandbox is stopped, so that its factory stops tracking it. */
  onStopped?: (sandbox: Sandbox) => void;
}
