// Test-only entry point (`@arvo-rca/arvo-docker/testing`): helpers for suites that need an engine.
export { describeWithDocker } from './lib/engine/docker-gate.testing';
export { removeImage } from './lib/images/sandbox-fixtures.testing';
export { engineKind } from './lib/engine/engine-kind.testing';
// The bundled sample tasks' images: `arvo-rca-sample:<id>-vul`.
export { sampleImageTag } from './lib/images/sample-image.testing';
// A real registry (Debian's docker-registry) on loopback, a throttle in front of it, and generated images in it.
export { pushGeneratedImage, TestRegistry, ThrottledProxy } from './lib/images/registry.testing';
