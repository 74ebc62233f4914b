// How a solver says its run ended: what the purple agent sends, the wire carries and the green agent records.
import type { SolverTrajectory } from '@arvo-rca/common';
import type { SolverUsage } from './solver-usage';

/** A solver's own word on its run: how it ended, why, what it cost, and its trajectory. */
export interface SolverExit {
  /** One word, as mini-swe-agent's: Submitted, LimitsExceeded, TimeExceeded, FormatError, ModelError, ... */
  exitStatus: string;
  reason?: string;
  usage?: SolverUsage;
  /** The run's trajectory: where the solver wrote it, and the document (the run record keeps it). */
  trajectory?: SolverTrajectory;
}
