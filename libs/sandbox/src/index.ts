// The sandbox layer's public face: the Nest module and its tokens, the Sandbox contract, the options,
// and what the green agent, the runner, the bench and the sample tooling use of the engine.
export { SandboxModule, type SandboxModuleAsyncOptions } from './lib/sandbox.module';
export { SANDBOX_FACTORY, SANDBOX_OWNER } from './lib/sandbox-tokens';
export type { CommandOutput, ExecOptions, ExecOutcome, PendingWorkspace, Sandbox, SandboxBackendName, SandboxFactory, SandboxKind, SandboxSpec } from './lib/sandbox';
export { SandboxError, type SandboxErrorCode } from './lib/sandbox-error';
export {
  DEFAULT_SANDBOX_OPTIONS,
  parseMemory,
  resolveSandboxOptions,
  SANDBOX_CHOICES,
  type SandboxChoice,
  type SandboxOptions,
  type SandboxOptionsInput,
} from './lib/sandbox-options';
export { DockerSandboxFactory } from './lib/sandbox-factory';
export { DockerSandbox } from './lib/docker-sandbox';
export { type StartBreakdown, type StartPhase } from './lib/start-breakdown';
export { NO_ISOLATION_WARNING } from './lib/local-sandbox';
export { probeBubblewrap } from './lib/bubblewrap';
export { chooseSandbox, type SandboxHost } from './lib/sandbox-choice';
export { taskContainerSpec } from './lib/container-spec';
// The engine: the client, labels, one-shot containers and the engine's kind.
export { createDockerClient, engineAnswers } from './lib/docker-client';
export { LABEL_CONTEXT, LABEL_OWNER, LABEL_TASK, LABEL_TASK_FOLDER, ownerFilter } from './lib/labels';
export { runOneShot } from './lib/one-shot';
export { engineKind } from './lib/engine-kind';
export { ownerHost } from './lib/host-identity';
// Owners: who made a container or a task folder, so that a restarted agent reaps a dead one's.
export { currentOwner, formatOwnerId, parseOwnerId } from './lib/owner-id';
export { markTaskFolder, TASK_OWNER_FILE, taskFolderOwner } from './lib/task-folder-owner';
// The sample images that `npm run images` builds and the sample tasks run on.
export { BASE_IMAGE, ensureSampleImage, listSampleIds, readSampleManifest, sampleImageTag, type SampleManifest } from './lib/sample-images';
