import type { SolverProtocol } from './dialects';
import type { TaskProgress } from './task-progress';

/** How a task is run: for whom, who hears of it, who may cancel it, and under which id the solver knows it. */
export interface TaskOrder {
  solverUrl: string;
  progress?: TaskProgress;
  signal?: AbortSignal;
  /** The masked id the solver is given instead of the task's own (`task:3f9a2c1b`); none: the task id. */
  maskedId?: string;
  /** The wire the solver is spoken to in; none: DEFAULT_SOLVER_PROTOCOL. */
  protocol?: SolverProtocol;
}
