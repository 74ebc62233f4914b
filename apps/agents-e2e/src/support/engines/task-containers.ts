import { once } from 'node:events';
import Docker from 'dockerode';
import { createDockerClient, LABEL_CONTEXT, LABEL_OWNER } from '@arvo-rca/arvo-docker';
import { engineKind } from '@arvo-rca/arvo-docker/testing';
import { ownerHost } from '@arvo-rca/sandbox';

/** The task containers of the agents under test, found by their labels. */
export class TaskContainers {
  private readonly docker = createDockerClient();
  private psArgs: Promise<string> | undefined;

  /** Containers of one task, by the context id the green agent gave it. */
  async ofContext(contextId: string): Promise<Docker.ContainerInfo[]> {
    return this.docker.listContainers({ all: true, filters: { label: [`${LABEL_CONTEXT}=${contextId}`] } });
  }

  /** Containers whose owner label names this process of this host (`<host>:<pid>:<start>:<nonce>`). */
  async ofProcess(pid: number): Promise<Docker.ContainerInfo[]> {
    const all = await this.docker.listContainers({ all: true, filters: { label: [LABEL_OWNER] } });
    return all.filter((info) => (info.Labels[LABEL_OWNER] ?? '').startsWith(`${ownerHost()}:${pid}:`));
  }

  /** Waits until a process of the container runs a command line matching `pattern`. */
  async waitForProcess(containerId: string, pattern: RegExp, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      // A container just created is not running yet: the engine refuses to list its processes (409) until it is.
      const top = (await this.docker
        .getContainer(containerId)
        .top({ ps_args: await this.topArgs() })
        .catch((error: { statusCode?: number }) => {
          if (error.statusCode === 409) return {};
          throw error;
        })) as { Processes?: string[][] };
      if ((top.Processes ?? []).some((row) => pattern.test(row.join(' ')))) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`no process matching ${pattern} ran in container ${containerId} within ${timeoutMs} ms`);
  }

  /** Runs `argv` in a running container, as its image's user, to its end. */
  async run(containerId: string, argv: string[]): Promise<void> {
    const exec = await this.docker.getContainer(containerId).exec({ Cmd: argv, AttachStdout: true, AttachStderr: true });
    const stream = await exec.start({});
    stream.resume();
    await once(stream, 'end');
  }

  /**
   * Docker runs `ps` with these options; podman 4.3 takes its own descriptors instead, and to ps options
   * (or none) answers 200 with an empty body.
   */
  private topArgs(): Promise<string> {
    this.psArgs ??= this.docker.version().then((version) => (engineKind(version) === 'podman' ? 'pid,args' : '-eo pid,args'));
    return this.psArgs;
  }

  /** Removes, with force, every container these processes own (a failed test's leftovers). */
  async removeOfProcesses(pids: number[]): Promise<void> {
    for (const pid of pids) {
      for (const info of await this.ofProcess(pid))
        await this.docker
          .getContainer(info.Id)
          .remove({ force: true, v: true })
          .catch(() => undefined);
    }
  }
}
