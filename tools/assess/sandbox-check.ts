import { chooseSandbox, NO_ISOLATION_WARNING, probeBubblewrap, type SandboxHost } from '@arvo-rca/sandbox';
import { DockerEngine } from '@arvo-rca/arvo-docker';
import { greenSetting } from './green-settings';

/** What the runner passes the green agent as SANDBOX, and tells the user before any agent starts. */
export interface SandboxPick {
  sandbox: 'docker' | 'local' | 'local-unsafe';
  /** One line for the terminal. */
  line: string;
  /** A plain warning for the terminal, when nothing is isolated. */
  warning?: string;
}

export const THIS_HOST: SandboxHost = {
  engineAnswers: () => DockerEngine.fromEnvironment().answers(),
  probeBubblewrap: () => probeBubblewrap(),
};

/** SANDBOX as the green agent will read it: the environment first, then `.env` in its working directory. */
export function sandboxChoice(env: NodeJS.ProcessEnv, dir: string): string {
  return greenSetting('SANDBOX', env, dir) ?? 'auto';
}

/**
 * The sandbox the green agent will run the solver's commands in. Throws, in plain words that say what to
 * install, when this machine has none; runs without isolation only when the user named SANDBOX=local-unsafe.
 */
export async function pickSandbox(choice: string, host: SandboxHost = THIS_HOST): Promise<SandboxPick> {
  const backend = await chooseSandbox(choice, host);
  const automatic = choice === 'auto' ? ' (picked automatically)' : '';
  if (backend.kind === 'docker') return { sandbox: 'docker', line: `sandbox: docker, a container per task${automatic}` };
  if (backend.isolation === 'bwrap') return { sandbox: 'local', line: `sandbox: local, each command in bubblewrap, without network${automatic}` };
  return { sandbox: 'local-unsafe', line: 'sandbox: local-unsafe, nothing isolated', warning: NO_ISOLATION_WARNING };
}
