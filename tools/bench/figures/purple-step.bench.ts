/* eslint-disable @nx/enforce-module-boundaries -- this figure is the purple agent's own loop, measured in-process; nothing else in tools imports an app. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandResult } from '@arvo-rca/sandbox';
import { AgentTemplates } from '../../../apps/purple-agent/src/app/agent/agent-templates';
import { DefaultAgent } from '../../../apps/purple-agent/src/app/agent/default-agent';
import type { TaskEnvironment } from '../../../apps/purple-agent/src/app/agent/task-environment';
import { TrajectoryFileSink, trajectoryPath, TrajectoryWriter } from '../../../apps/purple-agent/src/app/agent/trajectory';
import type { ChatMessage, Model, ModelReply, QueryOptions } from '../../../apps/purple-agent/src/app/models/model';
import { ScriptedModel } from '../../../apps/purple-agent/src/app/models/scripted-model';
import { median, round } from '../report/bench-stats';

export interface PurpleStepFigures {
  steps: number;
  median_ms: number;
  first_ms: number;
  last_ms: number;
  last_vs_first: number;
  runs: number;
}

const SUBMIT_MARKER = 'COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT';
const LOC_JSON = JSON.stringify({
  reasoning: 'the record length bound ignores the header',
  locations: [{ file: 'tlvkit/src/index.c', function: 'index_span', line_start: 60, line_end: 75, description: 'bound off by the header size' }],
});

/** Accumulates the time spent inside `work`, so that a step's own overhead can be told apart from it. */
export class Stopwatch {
  spentMs = 0;

  async time<T>(work: () => Promise<T>): Promise<T> {
    const started = process.hrtime.bigint();
    try {
      return await work();
    } finally {
      this.spentMs += Number(process.hrtime.bigint() - started) / 1e6;
    }
  }
}

/** A sandbox that answers at once: a 2 KB listing per command, the marker and loc.json for the submission. */
export class InstantEnvironment implements TaskEnvironment {
  constructor(private readonly watch: Stopwatch) {}

  execute(command: string): Promise<CommandResult> {
    return this.watch.time(async () => {
      if (command.includes(SUBMIT_MARKER)) return { returncode: 0, output: `${SUBMIT_MARKER}\n` };
      if (command.startsWith('cat ')) return { returncode: 0, output: LOC_JSON };
      return { returncode: 0, output: listing(command) };
    });
  }

  async finish(): Promise<void> {
    // The submission needs no answer here.
  }
}

class TimedModel implements Model {
  readonly name = 'scripted';

  constructor(
    private readonly inner: Model,
    private readonly watch: Stopwatch,
  ) {}

  query(messages: readonly ChatMessage[], options?: QueryOptions): Promise<ModelReply> {
    return this.watch.time(() => this.inner.query(messages, options));
  }
}

/**
 * The purple agent's loop (DefaultAgent, as the purple agent runs it: templates, observation
 * rendering, the trajectory file written after every step) over a scripted `steps`-step run
 * against a sandbox that answers at once. A step's overhead is the time between two step reports
 * minus the time spent in the model and the sandbox. One warm-up run, then `runs` measured ones.
 */
export async function measurePurpleStep(root: string, steps = 50, runs = 15): Promise<PurpleStepFigures> {
  const templates = await AgentTemplates.load(join(root, 'apps', 'purple-agent', 'src', 'assets', 'templates'));
  const description = `Root-cause analysis task sample:1.\n\n${await readFile(join(root, 'samples', '1', 'error.txt'), 'utf8')}`;
  const dir = await mkdtemp(join(tmpdir(), 'arvo-rca-bench-purple-'));
  try {
    const perRun: number[][] = [];
    for (let run = 0; run <= runs; run++) {
      const times = await oneRun(templates, description, join(dir, String(run)), steps);
      if (run > 0) perRun.push(times);
    }
    const first = median(perRun.map((times) => times[0]));
    const last = median(perRun.map((times) => times[steps - 1]));
    return {
      steps,
      median_ms: round(median(perRun.flat()), 3),
      first_ms: round(first, 3),
      last_ms: round(last, 3),
      last_vs_first: round(last / first),
      runs,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function oneRun(templates: AgentTemplates, description: string, logDir: string, steps: number): Promise<number[]> {
  const watch = new Stopwatch();
  // The measured steps, then the submission that ends the run (not measured: it does more).
  const replies = [...Array.from({ length: steps }, (_, index) => reply(index + 1)), `THOUGHT: done.\n\n\`\`\`bash\necho ${SUBMIT_MARKER}\n\`\`\``];
  const contextId = `bench-${logDir.slice(-8)}`;
  const times: number[] = [];
  let mark = process.hrtime.bigint();
  let spentAtMark = 0;
  const sink = new TrajectoryFileSink(trajectoryPath(logDir, 'sample:1', contextId), {
    writer: new TrajectoryWriter(),
    onStep: () => {
      const now = process.hrtime.bigint();
      times.push(Number(now - mark) / 1e6 - (watch.spentMs - spentAtMark));
      mark = now;
      spentAtMark = watch.spentMs;
    },
  });
  const agent = new DefaultAgent(new TimedModel(new ScriptedModel(replies), watch), new InstantEnvironment(watch), { templates, sink });
  const result = await agent.run({ taskId: 'sample:1', contextId, description });
  if (result.exitStatus !== 'Submitted') throw new Error(`the scripted purple run ended ${result.exitStatus}: ${result.message}`);
  return times.slice(0, steps);
}

function reply(step: number): string {
  const thought =
    `THOUGHT: Step ${step}. The crash is a heap-buffer-overflow read in tlv_cursor_be32, but the cursor only trusts the span it was given. `.repeat(2);
  return `${thought}\n\n\`\`\`bash\nsed -n '${step * 10},${step * 10 + 40}p' /workspace/src-vul/tlvkit/src/index.c\n\`\`\``;
}

function listing(command: string): string {
  const line = (n: number): string =>
    `${String(n).padStart(4)}    if (rec->len > idx->size - TLV_HEADER_SIZE) return TLV_ERR_BOUNDS; /* ${command.length} */\n`;
  return Array.from({ length: 24 }, (_, n) => line(n + 1)).join('');
}
