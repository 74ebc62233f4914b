/** Where the engine is and how to reach it: what DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH say. */
export interface EngineSettings {
  /** `unix:///path`, `tcp://host:port` (or `host:port`) or `ssh://user@host[:port]`; unset, the local socket. */
  host?: string;
  /** TLS to a tcp engine; an engine on port 2376 gets it too, as the Docker CLI does. */
  tlsVerify?: boolean;
  /** The folder of `ca.pem`, `cert.pem` and `key.pem` for a TLS engine. */
  certPath?: string;
  /** How the `ssh` client reaches an `ssh://` engine, beyond what the URL says. */
  ssh?: SshSettings;
}

/** For an `ssh://` engine; each unset one is left to ssh itself (~/.ssh/config, ~/.ssh/known_hosts, the agent). */
export interface SshSettings {
  /** The private key (`ssh -i`). */
  identityFile?: string;
  /** The known hosts file that holds the engine's host key (`UserKnownHostsFile`). */
  knownHostsFile?: string;
  /** The ssh agent's socket, given to the ssh process as its SSH_AUTH_SOCK. */
  authSocket?: string;
  /** The ssh client to run; unset, `ssh` on PATH. */
  command?: string;
}

/** The settings an environment names, as the Docker CLI reads them; for tools, which have no validated configuration. */
export function engineSettingsFromEnvironment(env: NodeJS.ProcessEnv = process.env): EngineSettings {
  const ssh: SshSettings = {
    identityFile: env['DOCKER_SSH_IDENTITY'] || undefined,
    knownHostsFile: env['DOCKER_SSH_KNOWN_HOSTS'] || undefined,
    authSocket: env['SSH_AUTH_SOCK'] || undefined,
  };
  return { host: env['DOCKER_HOST'] || undefined, tlsVerify: env['DOCKER_TLS_VERIFY'] === '1', certPath: env['DOCKER_CERT_PATH'] || undefined, ssh };
}
