import type Docker from 'dockerode';

export type EngineKind = 'docker' | 'podman';

/** What a task's container may ask of the engine behind the Docker API, where engines differ. */
export interface EngineTraits {
  kind: EngineKind;
  /** The engine's own name and version, for the task log. */
  describe: string;
  /**
   * Whether the container may be created with `AutoRemove`, so that the engine deletes it once its
   * keep-alive ends. Podman 4.3 may not: its restart (`POST /containers/{id}/restart`, how the sandbox
   * ends every process of a task after a timed-out command) stops an `--rm` container while an exec
   * session is open in it, its cleanup process removes the container midway, and the restart answers
   * 500 "saving container <id> state: container has already been removed": the task's container, files
   * and all, is gone. Without AutoRemove a container whose keep-alive ended stays, stopped and running
   * nothing, until its sandbox stops or the reaper of a later start removes it.
   */
  autoRemove: boolean;
}

export const DOCKER_TRAITS: EngineTraits = { kind: 'docker', describe: 'Docker', autoRemove: true };

/** The traits of the engine whose `/version` answer this is (podman names itself among its components). */
export function engineTraits(version: Docker.DockerVersion): EngineTraits {
  const podman = version.Components?.find((component) => /^podman/i.test(component.Name));
  if (podman) return { kind: 'podman', describe: `podman ${podman.Version}`, autoRemove: false };
  return { ...DOCKER_TRAITS, describe: `Docker ${version.Version}` };
}

/**
 * Asks the engine what it is, once per factory. An engine that cannot answer now (down, or a proxy that
 * refuses `/version`) counts as Docker for this start, and is asked again at the next.
 */
export class EngineProbe {
  private known: Promise<EngineTraits> | undefined;

  constructor(private readonly docker: Docker) {}

  traits(): Promise<EngineTraits> {
    this.known ??= this.docker.version().then(engineTraits);
    return this.known.catch(() => {
      this.known = undefined;
      return DOCKER_TRAITS;
    });
  }
}
