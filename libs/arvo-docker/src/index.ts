// The Docker side of the sandbox: ArvoDockerModule (the task sandboxes the green agent asks for: a
// container per task, or the local backend of @arvo-rca/sandbox where no engine answers), the engine
// client, the container sandbox and its copy-in, image pulls and the reaper.
export { ArvoDockerModule, type ArvoDockerOptionsInput } from './lib/arvo-docker.module';
export { DockerSandboxFactory } from './lib/sandbox/sandbox-factory';
export { DockerSandbox } from './lib/sandbox/docker-sandbox';
export { type StartBreakdown, type StartPhase } from './lib/sandbox/start-breakdown';
export { taskContainerSpec } from './lib/container/container-spec';
// The engine (the one client of its API), where it is, and the labels of what this project makes on it;
// createDockerClient is for tools and tests that drive the engine as a fixture.
export { createDockerClient, DockerEngine } from './lib/engine/docker-engine';
export { type EngineSettings } from './lib/engine/engine-settings';
export { LABEL_CONTEXT, LABEL_OWNER, LABEL_RECIPE, LABEL_TASK, LABEL_TASK_FOLDER, ownerFilter } from './lib/engine/labels';
export { ImagePuller } from './lib/images/image-puller';
// The images' disk budget: the record of the images pulled here, and what running assessments still need.
export { ImageBudget } from './lib/images/image-budget';
export { ImageLedger } from './lib/images/image-ledger';
export { NeededImages } from './lib/images/needed-images';
