import { randomUUID } from 'node:crypto';
import type Docker from 'dockerode';
import { ProcessTable } from '@arvo-rca/common';
import { currentOwner, formatOwnerId, resolveSandboxOptions, type Sandbox, type SandboxOptionsInput } from '@arvo-rca/sandbox';
import { makeTaskWorkspace } from '@arvo-rca/sandbox/testing';
import { createDockerClient, DockerEngine } from '../engine/docker-engine';
import { ownerFilter } from '../engine/labels';
import { DockerSandboxFactory } from './sandbox-factory';
import { sampleImageTag } from '../images/sample-image.testing';
import { useTempDir } from '../images/sandbox-fixtures.testing';

/** Sandboxes of sample 1 on the real engine for a suite on their limits; see useLimitsRig. */
export interface LimitsRig {
  docker: Docker;
  /** A factory with the suite's options and these, whose log lines go to `log`. */
  factory(options: SandboxOptionsInput, log?: string[]): DockerSandboxFactory;
  /** A sandbox of sample 1 made by `made`, with its breach of a limit told to `onDiskLimit` and its progress to `progress`; made ahead of its turn with `waitS`. */
  sandboxOf(made: DockerSandboxFactory, onDiskLimit?: (detail: string) => void, progress?: string[], waitS?: number): Promise<Sandbox>;
  /** The names of the containers this process owns on the engine. */
  ourContainers(): Promise<string[]>;
}

/**
 * Call inside a `describe`: factories on the engine with `defaults`, a temporary folder for their
 * workspaces, and, after the suite, every factory stopped and none of this process's containers left.
 */
export function useLimitsRig(tempPrefix: string, defaults: SandboxOptionsInput): LimitsRig {
  const docker = createDockerClient();
  const owner = formatOwnerId(currentOwner(new ProcessTable()));
  const factories: DockerSandboxFactory[] = [];
  const tempDir = useTempDir(tempPrefix);
  const rig: LimitsRig = {
    docker,
    factory(options, log = []) {
      const resolved = resolveSandboxOptions({ sandbox: 'docker', tmpDir: tempDir(), ...defaults, ...options });
      const made = new DockerSandboxFactory(DockerEngine.fromEnvironment(process.env, resolved), resolved, owner, undefined, (line) => log.push(line));
      factories.push(made);
      return made;
    },
    async sandboxOf(made, onDiskLimit, progress = [], waitS) {
      return made.create({
        onProgress: (line) => progress.push(line),
        task: 'sample:1',
        contextId: `ctx-${randomUUID()}`,
        image: sampleImageTag('1'),
        workspaceDir: await makeTaskWorkspace(tempDir()),
        onDiskLimit,
        waitS,
      });
    },
    async ourContainers() {
      return (await docker.listContainers({ all: true, filters: ownerFilter(owner) })).map((info) => info.Names[0]);
    },
  };
  afterAll(async () => {
    await Promise.all(factories.map((made) => made.stopAll()));
    expect(await rig.ourContainers()).toEqual([]);
  });
  return rig;
}
