export { createDockerClient, engineAnswers } from './lib/docker-client';
export { LABEL_CONTEXT, LABEL_OWNER, LABEL_RECIPE, LABEL_TASK, LABEL_TASK_FOLDER, ownerFilter, type ContainerLabels } from './lib/labels';
export { runOneShot, type OneShotOptions, type OneShotResult } from './lib/one-shot';
export {
  BASE_IMAGE,
  ensureSampleImage,
  listSampleIds,
  readSampleManifest,
  recipeFiles,
  recipeHash,
  sampleImageTag,
  type EnsureImageResult,
  type SampleManifest,
} from './lib/sample-images';
export type { CommandOutput, ExecOptions, ExecOutcome, PendingWorkspace, Sandbox, SandboxFactory, SandboxKind, SandboxSpec } from './lib/sandbox';
export { SandboxError, type SandboxErrorCode } from './lib/sandbox-error';
export {
  DEFAULT_SANDBOX_OPTIONS,
  defaultContainerCpus,
  parseMemory,
  resolveSandboxOptions,
  SANDBOX_CHOICES,
  type SandboxChoice,
  type SandboxOptions,
  type SandboxOptionsInput,
} from './lib/sandbox-options';
export { ArvoDockerModule, type ArvoDockerModuleAsyncOptions } from './lib/arvo-docker.module';
export { DOCKER_CLIENT, SANDBOX_FACTORY, SANDBOX_OPTIONS, SANDBOX_OWNER } from './lib/sandbox-tokens';
export { createSandboxFactory, DockerSandboxFactory, LocalSandboxFactory, type SandboxFactoryDeps } from './lib/sandbox-factory';
export { DockerSandbox, type DockerSandboxContext } from './lib/docker-sandbox';
export { describeStart, type StartBreakdown, type StartPhase } from './lib/start-breakdown';
export { LocalSandbox, NO_ISOLATION_WARNING, type LocalIsolation, type LocalSandboxContext } from './lib/local-sandbox';
export { bubblewrapWorks, probeBubblewrap, type BubblewrapProbe } from './lib/bubblewrap';
export { chooseSandbox, type SandboxBackend, type SandboxHost } from './lib/sandbox-choice';
export { BUILD_CAPABILITIES, containerName, taskContainerSpec } from './lib/container-spec';
export { engineKind, type EngineKind } from './lib/engine-kind';
export { SANDBOX_WORKSPACE } from './lib/command-guard';
export { HeadTailCap } from './lib/output-cap';
export { ownerHost } from './lib/host-identity';
export { currentOwner, formatOwnerId, parseOwnerId, type OwnerIdentity } from './lib/owner-id';
export { markTaskFolder, TASK_OWNER_FILE, taskFolderOwner } from './lib/task-folder-owner';
export { SandboxReaper, TASK_DIR_PATTERN, type ReapedContainers } from './lib/sandbox-reaper';
