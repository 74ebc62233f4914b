/** The run's log directory (trajectories go to `<it>/trajectories/`). */
export const RUN_LOG_DIR = Symbol('RUN_LOG_DIR');
