/**
 * How an assessment's tasks were drawn from a longer list (`num_tasks` with a seed): what repeats the draw
 * exactly, and what a resume runs without drawing again. The draw is libs/task-lists' drawTasks.
 */
export interface TaskDraw {
  /** The list drawn from: its name (`rcabench-clean-181`), the file the request named, or null for the request's own task_ids. */
  list: string | null;
  /** How many ids the list held. */
  list_size: number;
  seed: number;
  /** The ids drawn, in draw order: the whole assessment's tasks, before num_instances and the shards cut them. */
  task_ids: string[];
}
