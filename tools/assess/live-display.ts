import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import { describePull, type TaskProgressLine } from '@arvo-rca/a2a-protocol';
import type { PullProgress } from '@arvo-rca/sandbox';
import { formatBytes } from '@arvo-rca/common';

interface RunningTask {
  bar?: SingleBar;
  started: number;
  step: number;
  command: string;
}

/**
 * What the runner shows while an assessment runs. On a terminal: a bar over the tasks, one line per
 * running task (id, step, last command or its image's pull, elapsed), and one per task whose image is
 * pulled ahead of its turn. Elsewhere (CI logs): a line when a task starts or ends, and when a pull is done.
 */
export class LiveDisplay {
  private readonly running = new Map<string, RunningTask>();
  /** Tasks whose image is being pulled before their turn: their line, until the pull is done or the task starts. */
  private readonly ahead = new Map<string, SingleBar | undefined>();
  /** Pulls said done (`<task> <image>`), once each: a task that joins a pull at its end hears its figures again. */
  private readonly pulled = new Set<string>();
  private readonly bars?: MultiBar;
  private readonly overall?: SingleBar;
  private readonly ticker?: NodeJS.Timeout;
  private done = 0;

  /** `total` undefined: the count is not known here (a resume a green agent elsewhere plans). */
  constructor(
    private readonly total: number | undefined,
    interactive = Boolean(process.stdout.isTTY),
    /** Where lines go when the display is not interactive. */
    private readonly print: (line: string) => void = (line) => console.log(line),
  ) {
    if (!interactive) return;
    this.bars = new MultiBar(
      { clearOnComplete: false, hideCursor: true, format: '{bar} {value}/{total} tasks | {duration_formatted}', autopadding: true },
      Presets.shades_classic,
    );
    if (total !== undefined) this.overall = this.bars.create(total, 0);
    this.ticker = setInterval(() => this.redraw(), 1000);
  }

  /** A line of its own above the running tasks. */
  note(text: string): void {
    if (this.bars) this.bars.log(`${text}\n`);
    else this.print(text);
  }

  update(line: TaskProgressLine): void {
    switch (line.kind) {
      case 'started':
        return this.start(line.task);
      case 'step': {
        const task = this.running.get(line.task);
        // The command comes whole; one line of the display shows it folded.
        if (task) Object.assign(task, { step: line.step, command: line.command.replace(/\s+/g, ' ').trim() });
        return this.redraw();
      }
      case 'finished':
        return this.finish(line.task, `${line.status}${line.detail ? ` (${line.detail})` : ''}`);
      case 'pull':
        return this.pull(line.task, line);
      case 'note':
        return;
    }
  }

  stop(): void {
    clearInterval(this.ticker);
    this.bars?.stop();
  }

  private pull(task: string, pull: PullProgress): void {
    const done = pull.layers > 0 && pull.layersDone === pull.layers;
    const running = this.running.get(task);
    if (running) Object.assign(running, { command: describePull(pull) });
    else this.showAhead(task, done ? undefined : describePull(pull));
    this.redraw();
    const key = `${task} ${pull.image}`;
    if (!done || this.pulled.has(key)) return;
    this.pulled.add(key);
    const line = `pulled    ${task}  ${pull.image}  ${formatBytes(pull.bytes)}${running ? '' : ' (ahead of its turn)'}`;
    if (this.bars) this.bars.log(`${line}\n`);
    else this.print(line);
  }

  /** The line of a task pulled ahead: `text`, or gone when undefined. */
  private showAhead(task: string, text: string | undefined): void {
    const bar = this.ahead.get(task);
    if (text === undefined) {
      if (bar) this.bars?.remove(bar);
      this.ahead.delete(task);
      return;
    }
    if (bar) return bar.update(0, { task, text });
    this.ahead.set(task, this.bars?.create(0, 0, { task, text }, { format: '  {task}  ahead  {text}' }));
  }

  private start(task: string): void {
    this.showAhead(task, undefined);
    const bar = this.bars?.create(0, 0, this.payload(task, 0, ''), { format: '  {task}  step {step}  {elapsed}s  {command}' });
    this.running.set(task, { bar, started: Date.now(), step: 0, command: '' });
    if (!this.bars) this.print(`started   ${task}`);
  }

  private finish(task: string, outcome: string): void {
    const running = this.running.get(task);
    this.running.delete(task);
    this.done += 1;
    const seconds = running ? ((Date.now() - running.started) / 1000).toFixed(1) : '?';
    const line = `finished  ${task}  ${outcome}  ${seconds}s  [${this.done}/${this.total ?? '?'}]`;
    if (!this.bars) return this.print(line);
    if (running?.bar) this.bars.remove(running.bar);
    this.bars.log(`${line}\n`);
    this.overall?.update(this.done);
  }

  private redraw(): void {
    for (const [task, running] of this.running) {
      running.bar?.update(0, this.payload(task, running.step, running.command, running.started));
    }
  }

  private payload(task: string, step: number, command: string, started = Date.now()) {
    const width = Math.max(20, (process.stdout.columns ?? 100) - task.length - 30);
    return { task, step, command: command.length > width ? `${command.slice(0, width - 1)}…` : command, elapsed: Math.round((Date.now() - started) / 1000) };
  }
}
