/**
 * Where a container sandbox's start went, in milliseconds per phase. `copy` and `git` run side by side; so
 * do `tree` and `probe` and `workspace`, which overlap the host's own extraction of the workspace.
 */
export interface StartBreakdown {
  /** Making sure the image is there (an inspect; a pull when it is missing). */
  image: number;
  /** Waiting for a place in the engine gate, which paces starts and removals. */
  queue: number;
  create: number;
  /** Attach (to the main process, which takes the workspace) and start. */
  start: number;
  /** Opening the shell session and its first command: the container answers. */
  probe: number;
  /** The source tree into the container (its main process's tar, or the archive API) as the host extracted it (a pending workspace), from the container's start on. */
  tree: number;
  /** Waiting, once the container answered, for the host to finish the workspace (a pending workspace). */
  workspace: number;
  /** The rest of the workspace (after a tree copied on the way), until the container's tar has unpacked all of it. */
  copy: number;
  /** `.git` removal through the session. */
  git: number;
  total: number;
}

export type StartPhase = Exclude<keyof StartBreakdown, 'total'>;

/** Times the phases of one start. */
export class StartClock {
  private readonly began = performance.now();
  private readonly spent: Partial<Record<StartPhase, number>> = {};

  /** Runs `work` as `phase`, and keeps how long it took. */
  async time<T>(phase: StartPhase, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.spent[phase] = performance.now() - started;
    }
  }

  /** Keeps a phase measured elsewhere (the wait in the gate ends where the work begins). */
  record(phase: StartPhase, ms: number): void {
    this.spent[phase] = ms;
  }

  breakdown(): StartBreakdown {
    const at = (phase: StartPhase): number => Math.round((this.spent[phase] ?? 0) * 10) / 10;
    return {
      image: at('image'),
      queue: at('queue'),
      create: at('create'),
      start: at('start'),
      probe: at('probe'),
      tree: at('tree'),
      workspace: at('workspace'),
      copy: at('copy'),
      git: at('git'),
      total: Math.round((performance.now() - this.began) * 10) / 10,
    };
  }
}

/** One line for the task log. */
export function describeStart(breakdown: StartBreakdown): string {
  const { image, queue, create, start, probe, tree, workspace, copy, git, total } = breakdown;
  const r = Math.round;
  return `started in ${r(total)} ms: image ${r(image)}, queue ${r(queue)}, create ${r(create)}, start ${r(start)}, probe ${r(probe)}, source tree ${r(tree)} as the host extracted it (waited ${r(workspace)} for the host), copy ${r(copy)} beside .git removal ${r(git)}`;
}
