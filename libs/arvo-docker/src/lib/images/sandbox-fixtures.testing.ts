import Docker from 'dockerode';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { create as createTar } from 'tar';

/**
 * Where tests build and delete their own images: the engine itself, or, when the suites reach it through
 * a proxy that refuses both (AgentBeats' gateway), the engine behind it (`FIXTURE_DOCKER_HOST`, a unix
 * socket). The product never builds or deletes an image.
 */
function fixtureEngine(docker: Docker): Docker {
  const host = process.env['FIXTURE_DOCKER_HOST'];
  return host?.startsWith('unix://') ? new Docker({ socketPath: host.slice('unix://'.length) }) : docker;
}

/** Builds a throwaway image from a Dockerfile and files, all in memory of a temp folder. */
export async function buildTestImage(through: Docker, tag: string, files: Record<string, string>): Promise<void> {
  const docker = fixtureEngine(through);
  const context = await mkdtemp(join('/tmp', 'arvo-image-'));
  try {
    for (const [name, content] of Object.entries(files)) await writeFile(join(context, name), content);
    const tar = createTar({ cwd: context, portable: true }, Object.keys(files));
    const stream = await docker.buildImage(tar as unknown as NodeJS.ReadableStream, { t: tag, rm: true, forcerm: true });
    await new Promise<void>((resolve, reject) => {
      let failure: string | undefined;
      docker.modem.followProgress(
        stream,
        (error: Error | null) => (error ? reject(error) : failure ? reject(new Error(failure)) : resolve()),
        (event: { error?: string }) => {
          if (event.error) failure = event.error;
        },
      );
    });
  } finally {
    await rm(context, { recursive: true, force: true });
  }
}

export async function removeImage(docker: Docker, tag: string): Promise<void> {
  await fixtureEngine(docker)
    .getImage(tag)
    .remove({ force: true })
    .catch(() => undefined);
}

/** A shell loop that prints each process's command line (the sample images have no `ps`). */
/** Every process's command line, one line each (the boot's script has newlines of its own). */
export const LIST_PROCESSES = 'for p in /proc/[0-9]*; do tr "\\0\\n" "  " < "$p/cmdline" 2>/dev/null; echo; done';
/**
 * The keep-alive in LIST_PROCESSES's list: `sleep 900`, or the boot about to become it (a restart returns
 * once the boot said it keeps the container alive, which may be just before its `exec sleep`); never the
 * engine's init, whose arguments hold the boot's too.
 */
export const KEEP_ALIVE = /^(?:sleep|sh -c .*) 900 $/m;

/** What a command cut short at its limit of `seconds` returns: -1, what it printed by then, and the note that every process of the task was ended. */
export function endedByTimeout(seconds: number, output: string): object {
  const note = new RegExp(`^command timed out after ${seconds} s; every process of the task was ended`);
  return { kind: 'ran', returncode: -1, output, timedOut: expect.stringMatching(note) };
}

/** Registers the hooks of a fresh folder under /tmp for the whole suite, or for each test; the getter names the current one. */
export function useTempDir(prefix: string, per: 'suite' | 'test' = 'suite'): () => string {
  let dir = '';
  (per === 'test' ? beforeEach : beforeAll)(async () => {
    dir = await mkdtemp(join('/tmp', prefix));
  });
  (per === 'test' ? afterEach : afterAll)(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return () => dir;
}
