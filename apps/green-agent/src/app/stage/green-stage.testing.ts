import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { A2aClientFactory, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { startGreenApp } from './green-app.testing';
import { startSolverStandIn, type SolverScript, type SolverStandIn } from './solver-stand-in.testing';

/** What a spec of the whole green agent runs against: a solver stand-in and the green app handing it tasks. */
export interface GreenScene {
  /** Where the app keeps its workspaces (`tasks`), caches and logs, and a spec lays out what the app reads. */
  scratch: string;
  solver: SolverStandIn;
  green: NestFastifyApplication;
  greenUrl: string;
  /** Sends the green app an assessment of `config` with this scene's solver; every event of its stream. */
  assess(config: Record<string, unknown>): Promise<PeerEvent[]>;
}

// Long enough for a few sample tasks on a busy machine.
const ASSESSMENT_DEADLINE_MS = 180_000;

/** Where one describe block's scene is set up; what it started is stopped after the block. */
export interface GreenStage {
  /** The block's scratch folder, made on the first call with its `tasks` folder. */
  scratch(): string;
  /** A solver stand-in on `script`, stopped after the block. */
  standIn(script: SolverScript): Promise<SolverStandIn>;
  /** A solver stand-in on `script`, then the green app over the scratch folder handing it tasks, configured by `env`. */
  start(script: SolverScript, env?: Record<string, string>): Promise<GreenScene>;
}

/**
 * The stage of a describe block of the whole green agent, its scratch folder named after `name`. Called in the
 * block's body, it registers the `afterAll` that closes the green app, stops the stand-in, removes the scratch
 * folder and restores the environment the app was configured through.
 */
export function greenStage(name: string): GreenStage {
  const saved = { ...process.env };
  let scratch: string | undefined;
  let solver: SolverStandIn | undefined;
  let green: NestFastifyApplication | undefined;
  const clients = new A2aClientFactory();

  afterAll(async () => {
    await green?.close();
    await solver?.agent.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    process.env = { ...saved };
  });

  function makeScratch(): string {
    if (scratch) return scratch;
    scratch = mkdtempSync(join(tmpdir(), `arvo-rca-${name}-`));
    mkdirSync(join(scratch, 'tasks'));
    return scratch;
  }

  async function standIn(script: SolverScript): Promise<SolverStandIn> {
    solver = await startSolverStandIn(script);
    return solver;
  }

  return {
    scratch: makeScratch,
    standIn,
    async start(script, env = {}) {
      const dir = makeScratch();
      const started = await standIn(script);
      const { app, url } = await startGreenApp(dir, started, env);
      green = app;
      const assess = async (config: Record<string, unknown>): Promise<PeerEvent[]> => {
        const events: PeerEvent[] = [];
        const request = JSON.stringify({ participants: { purple_agent: started.agent.url }, config });
        for await (const event of clients.peer(url).streamText(randomUUID(), request, { deadlineMs: ASSESSMENT_DEADLINE_MS })) events.push(event);
        return events;
      };
      return { scratch: dir, solver: started, green: app, greenUrl: url, assess };
    },
  };
}
