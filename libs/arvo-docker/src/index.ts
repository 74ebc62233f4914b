export { createDockerClient, engineAnswers } from './lib/docker-client';
export { LABEL_CONTEXT, LABEL_OWNER, LABEL_RECIPE, LABEL_TASK, ownerFilter, type ContainerLabels } from './lib/labels';
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
