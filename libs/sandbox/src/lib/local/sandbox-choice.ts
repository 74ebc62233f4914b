import type { BubblewrapProbe } from './bubblewrap';
import type { LocalIsolation } from './local-command';
import { SandboxError } from '../sandbox-error';
import { SANDBOX_CHOICES } from '../sandbox-options';

/** The backend a SANDBOX choice comes to on this host. */
type SandboxBackend = { kind: 'docker' } | { kind: 'local'; isolation: LocalIsolation };

/** What the choice depends on: whether a Docker engine answers, whether bubblewrap runs here. */
export interface SandboxHost {
  engineAnswers(): Promise<boolean>;
  probeBubblewrap(): BubblewrapProbe;
}

const NO_ENGINE = 'no Docker engine answers (at DOCKER_HOST or the local socket)';
const UNSAFE = "or set SANDBOX=local-unsafe to run the solver's commands with no isolation at all (only for solvers you trust)";

/**
 * `docker`: an engine must answer. `local`: bubblewrap must run. `local-unsafe`: plain processes, by
 * name only. `auto`: docker when an engine answers, else local in bubblewrap, never plain processes.
 * A choice this host cannot honour throws, saying what to install.
 */
export async function chooseSandbox(choice: string, host: SandboxHost): Promise<SandboxBackend> {
  switch (choice) {
    case 'docker':
      if (await host.engineAnswers()) return { kind: 'docker' };
      throw new SandboxError('ENGINE_UNAVAILABLE', `SANDBOX=docker, but ${NO_ENGINE}`);
    case 'local':
      return inBubblewrap('local', host.probeBubblewrap());
    case 'local-unsafe':
      return { kind: 'local', isolation: 'process' };
    case 'auto':
      if (await host.engineAnswers()) return { kind: 'docker' };
      return inBubblewrap('auto', host.probeBubblewrap());
    default:
      throw new SandboxError('SANDBOX_UNKNOWN', `SANDBOX=${JSON.stringify(choice)} is not a sandbox backend; use one of: ${SANDBOX_CHOICES.join(', ')}`);
  }
}

function inBubblewrap(choice: 'local' | 'auto', probe: BubblewrapProbe): SandboxBackend {
  if (probe.kind === 'works') return { kind: 'local', isolation: 'bwrap' };
  throw new SandboxError('ISOLATION_UNAVAILABLE', `${noIsolation(choice, probe)}, ${UNSAFE}`);
}

function noIsolation(choice: 'local' | 'auto', probe: Exclude<BubblewrapProbe, { kind: 'works' }>): string {
  const problem = probe.kind === 'missing' ? 'is not installed' : `cannot run here (${probe.reason})`;
  const fix =
    probe.kind === 'missing' ? 'install bubblewrap (apt-get install bubblewrap)' : 'let bubblewrap make its namespaces (allow unprivileged user namespaces)';
  if (choice === 'local') return `SANDBOX=local needs bubblewrap, which ${problem}: ${fix}`;
  return `no sandbox can run here: ${NO_ENGINE}, and bubblewrap ${problem}. Install Docker (apt-get install docker.io), or ${fix}`;
}
