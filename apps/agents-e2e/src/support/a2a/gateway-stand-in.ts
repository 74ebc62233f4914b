import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { ROOT } from '../processes/agent-processes';

const run = promisify(execFile);

/** The engine behind the stand-in, where the suite checks what is left without going through it. */
export const ENGINE_SOCKET = '/var/run/docker.sock';

/** A call the stand-in refused, as it records it. */
export interface RefusedCall {
  method: string;
  path: string;
  reason: string;
}

/**
 * The stand-in for AgentBeats' Docker gateway (tools/engines/gateway.sh), in front of this machine's
 * engine, with its state in a folder of its own. `refuse` adds refusals on top of the gateway's policy.
 */
export class GatewayStandIn {
  readonly state = mkdtempSync(join(tmpdir(), 'arvo-gw-'));
  private up = false;

  constructor(private readonly refuse: string[] = []) {}

  /** The `DOCKER_HOST` that reaches the engine through the stand-in. */
  get dockerHost(): string {
    return `unix://${join(this.state, 'docker.sock')}`;
  }

  /** The engine itself, for checks the product's calls must not be mixed with. */
  engine(): Docker {
    return new Docker({ socketPath: ENGINE_SOCKET });
  }

  async start(): Promise<void> {
    this.up = true;
    await run('bash', [join(ROOT, 'tools/engines/gateway.sh'), 'up', this.state], {
      env: { ...process.env, ENGINE_SOCKET, GATEWAY_REFUSE: this.refuse.join('\n') },
      timeout: 90_000,
    });
  }

  /** Every call refused so far. */
  refused(): RefusedCall[] {
    const text = readFileSync(join(this.state, 'refused.jsonl'), 'utf8');
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as RefusedCall);
  }

  log(): string {
    return readFileSync(join(this.state, 'gateway.log'), 'utf8');
  }

  async stop(): Promise<void> {
    if (this.up) await run('bash', [join(ROOT, 'tools/engines/gateway.sh'), 'down', this.state], { timeout: 30_000 }).catch(() => undefined);
    this.up = false;
    rmSync(this.state, { recursive: true, force: true });
  }
}
