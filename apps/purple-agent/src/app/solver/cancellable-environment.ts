import type { CommandResult } from '@arvo-rca/sandbox';
import type { TaskEnvironment } from '../agent/task-environment';

/** A task environment that refuses every command once its task is canceled, which ends the run. */
export class CancellableEnvironment implements TaskEnvironment {
  constructor(
    private readonly inner: TaskEnvironment,
    private readonly canceled: AbortSignal,
  ) {}

  execute(command: string): Promise<CommandResult> {
    if (this.canceled.aborted) return Promise.reject(new Error('the task was canceled'));
    return this.inner.execute(command);
  }

  finish(): Promise<void> {
    if (this.canceled.aborted) return Promise.reject(new Error('the task was canceled'));
    return this.inner.finish();
  }
}
