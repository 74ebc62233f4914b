import Docker from 'dockerode';
import { SshDialAgent, sshConfig } from './ssh-dial-agent';

/**
 * A client of the engine DOCKER_HOST names (unix socket, tcp with DOCKER_TLS_VERIFY and DOCKER_CERT_PATH,
 * or ssh), the local socket by default. dockerode reads those variables itself; only ssh is set up here,
 * so that every engine call shares one ssh connection instead of making its own.
 */
export function createDockerClient(env: NodeJS.ProcessEnv = process.env): Docker {
  const host = env['DOCKER_HOST'];
  if (!host?.startsWith('ssh://')) return new Docker();
  const url = new URL(host);
  // The modem passes `agent` on to every request; its typings leave it out. Kept alive: each new
  // connection starts a `docker` process on the engine's machine, which costs more than the ssh channel.
  const options: Docker.DockerOptions & { agent: SshDialAgent } = { protocol: 'http', host: url.hostname, port: Number(url.port || 22), agent: new SshDialAgent(sshConfig(url, env), { keepAlive: true }) };
  return new Docker(options);
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
