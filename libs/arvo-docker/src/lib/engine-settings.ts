/** Where the engine is and how to reach it: what DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH say. */
export interface EngineSettings {
  /** `unix:///path`, `tcp://host:port` (or `host:port`) or `ssh://user@host[:port]`; unset, the local socket. */
  host?: string;
  /** TLS to a tcp engine; an engine on port 2376 gets it too, as the Docker CLI does. */
  tlsVerify?: boolean;
  /** The folder of `ca.pem`, `cert.pem` and `key.pem` for a TLS engine. */
  certPath?: string;
}

/** The settings an environment names, as the Docker CLI reads them; for tools, which have no validated configuration. */
export function engineSettingsFromEnvironment(env: NodeJS.ProcessEnv = process.env): EngineSettings {
  return { host: env['DOCKER_HOST'] || undefined, tlsVerify: env['DOCKER_TLS_VERIFY'] === '1', certPath: env['DOCKER_CERT_PATH'] || undefined };
}
