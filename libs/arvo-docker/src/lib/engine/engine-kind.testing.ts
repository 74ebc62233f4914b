import type Docker from 'dockerode';

export type EngineKind = 'docker' | 'podman';

/** Which engine answers behind the Docker API: podman names itself among the components of its `/version`. */
export function engineKind(version: Docker.DockerVersion): EngineKind {
  return version.Components?.some((component) => /^podman/i.test(component.Name)) ? 'podman' : 'docker';
}
