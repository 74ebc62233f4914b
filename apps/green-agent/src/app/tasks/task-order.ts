import type { SolverDialectChoice } from './dialects';
import type { TaskProgress } from './task-progress';

/** How a task is run: for whom, who hears of it, who may cancel it, under which id the solver knows it, and when it is handed over. */
export interface TaskOrder {
  solverUrl: string;
  progress?: TaskProgress;
  signal?: AbortSignal;
  /** The masked id the solver is given instead of the task's own (`task:3f9a2c1b`); none: the task id. */
  maskedId?: string;
  /** The dialect the solver is spoken to in, and why, shared by the tasks of an assessment; none: found from the solver's first answer. */
  dialect?: SolverDialectChoice;
  /**
   * For a task prepared ahead of its turn: its sandbox starts at once, and the task is handed over once this
   * settles (its time limit starts then). When it rejects, the task ends without being handed over, as a
   * canceled one does. None: handed over as soon as its sandbox runs.
   */
  turn?: Promise<void>;
}
