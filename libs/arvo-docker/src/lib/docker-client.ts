import Docker from 'dockerode';

// dockerode reads DOCKER_HOST (unix socket, tcp or ssh) itself; the local socket is its default.
export function createDockerClient(): Docker {
  return new Docker();
}

/** Whether an engine answers within the deadline; never throws. */
export async function engineAnswers(docker: Docker, timeoutMs = 3000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([docker.ping().then(() => true), deadline]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
