import type { A2aServerOptions } from '@arvo-rca/a2a-protocol';
import type { AppConfig } from './app-config';

/** The A2A server's options from the agent's configuration: the shared secret and the largest request body. */
export function a2aServerOptions(config: AppConfig): A2aServerOptions {
  return { token: config.A2A_TOKEN, maxBodyBytes: config.A2A_MAX_BODY_BYTES };
}
