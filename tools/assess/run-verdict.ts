// What a run's exit status says. A task the solver got wrong (scored, even zero; no or a bad submission;
// over its disk limit) is a result: 0. A task that failed around the solver or was interrupted has none,
// nor has a run that assessed nothing: 1, with a last line that says why and what to do.
import type { AssessmentResult, TaskResult } from '@arvo-rca/results';
import { imagesOfTasks } from './task-images';

export interface RunVerdict {
  exitCode: 0 | 1;
  /** Printed last, the very last one saying why; none when every task has its result. */
  lines: string[];
}

/** Where the tasks ran, for the words of the last line. */
export interface RunPlace {
  /** The green agent's engine, when this runner started the green agent (`unix:///var/run/docker.sock`); else the green agents' URLs. */
  engine?: string;
  greens: string[];
  /** The command that runs the failed and interrupted tasks again. */
  retry?: string;
}

const NO_RESULT = new Set(['failed', 'interrupted']);
// The sandbox's codes for an image it could not pull; the task's entry then names the image (`image`).
const IMAGE_FAILURES = new Set(['IMAGE_PULL_FAILED', 'IMAGE_PULL_TIMEOUT']);
// Every failed task is named on a line of its own, up to this many; the last line names this many images.
const TASKS_SHOWN = 10;
const IMAGES_NAMED = 3;

export function verdictOf(result: AssessmentResult, place: RunPlace): RunVerdict {
  if (result.n_tasks === 0) return { exitCode: 1, lines: ['assess: nothing was assessed: the Result holds no task'] };
  const broken = Object.entries(result.task_metrics).filter(([, metrics]) => NO_RESULT.has(metrics.status));
  const taskIds = new Map(Object.keys(result.task_metrics).map((key, index) => [key, result.task_ids[index]]));
  if (broken.length === 0) return { exitCode: 0, lines: [] };
  const named = broken.slice(0, TASKS_SHOWN).map(([task, metrics]) => `  ${task}  ${metrics.status}: ${reasonOf(metrics)}`);
  const more = broken.length > TASKS_SHOWN ? [`  ... and ${broken.length - TASKS_SHOWN} more`] : [];
  return { exitCode: 1, lines: [...named, ...more, `assess: ${howMany(broken, result.n_tasks)}: ${whyAndWhatToDo(broken, taskIds, place)}`] };
}

function howMany(broken: [string, TaskResult][], total: number): string {
  const count = (status: string): number => broken.filter(([, metrics]) => metrics.status === status).length;
  const parts = [
    count('failed') && `${count('failed')} of ${total} tasks failed`,
    count('interrupted') && `${count('interrupted')} of ${total} were interrupted`,
  ];
  return parts.filter(Boolean).join(', ');
}

function whyAndWhatToDo(broken: [string, TaskResult][], taskIds: ReadonlyMap<string, string>, place: RunPlace): string {
  const unpulled = broken.filter(([, metrics]) => IMAGE_FAILURES.has(metrics.error_code ?? ''));
  const images = [...new Set(unpulled.flatMap(([key, metrics]) => imageTried(metrics, taskIds.get(key) ?? key)))];
  if (images.length > 0) {
    const engine = place.engine ? `the engine at ${place.engine}` : `the engine of the green agent at ${place.greens.join(', ')}`;
    const samples = images.some((image) => image.startsWith('arvo-rca-sample:'));
    const todo = samples
      ? 'run `npm run images` on that engine (`npm start` does it when it starts the green agent)'
      : `check that the engine reaches the registry (\`docker pull ${images[0]}\`)`;
    const more = images.length > IMAGES_NAMED ? ` and ${images.length - IMAGES_NAMED} more` : '';
    return `image ${images.slice(0, IMAGES_NAMED).join(', ')}${more} could not be had on ${engine}; ${todo}${retry(place)}`;
  }
  if (broken.every(([, metrics]) => metrics.status === 'interrupted')) return `the green agent stopped before they ended${retry(place)}`;
  const [task, metrics] = broken.find(([, entry]) => entry.status === 'failed') ?? broken[0];
  return `${task}: ${reasonOf(metrics)}; its log says more${retry(place)}`;
}

/**
 * The image the green agent tried, as its Result names it (by the green agent's own templates, a mirror's by
 * ARVO_IMAGE_TEMPLATE); in a Result from a green agent that did not name it yet, the image the task's id names by default.
 */
function imageTried(metrics: TaskResult, task: string): string[] {
  return metrics.image ? [metrics.image] : imagesOfTasks([task]).map((entry) => entry.image);
}

function reasonOf(metrics: TaskResult): string {
  return metrics.detail?.trim() || '(no reason given)';
}

function retry(place: RunPlace): string {
  return place.retry ? `; then \`${place.retry}\` runs them again` : '';
}
