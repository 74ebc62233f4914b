// The images the tasks of a run need, derived as the green agent derives them: the task id read by the
// one grammar (a bare id is an ARVO task; sources are read case-blind) and its source's image template.
import {
  fillImageTemplate,
  isTaskSourceName,
  parseTaskRef,
  TASK_SOURCE_NAMES,
  TaskRefError,
  taskImage,
  type TaskRef,
  type TaskSourceName,
} from '@arvo-rca/common';

/** An image some tasks need: the first task's source and id name it, the others share it. */
export interface TaskImage {
  image: string;
  source: TaskSourceName;
  id: string;
  tasks: string[];
}

/**
 * Each image once, in the order of the list; a task of no known source needs none (the green agent refuses it by name).
 * `arvoImageTemplate`: the green agent's ARVO_IMAGE_TEMPLATE, where it sets one.
 */
export function imagesOfTasks(tasks: readonly string[], arvoImageTemplate?: string): TaskImage[] {
  const images = new Map<string, TaskImage>();
  for (const task of tasks) {
    const ref = readTaskId(task);
    if (!ref || !isTaskSourceName(ref.source)) continue;
    const image = ref.source === 'arvo' && arvoImageTemplate ? fillImageTemplate(arvoImageTemplate, ref.id) : taskImage(ref.source, ref.id);
    const known = images.get(image);
    if (known) known.tasks.push(task);
    else images.set(image, { image, source: ref.source, id: ref.id, tasks: [task] });
  }
  return [...images.values()];
}

/**
 * The images the runner makes before the green agent starts. With an image budget (IMAGE_DISK_BUDGET, as the
 * green agent reads it) only the samples' images, which are built here: pulled here, an ARVO image would be
 * outside the budget (on the engine before the agent needed it, it is never removed), so the agent pulls those.
 */
export function imagesToMakeBeforehand(images: TaskImage[], imageBudget: string | undefined): TaskImage[] {
  const budgeted = imageBudget !== undefined && /[1-9]/.test(imageBudget);
  return budgeted ? images.filter((image) => image.source === 'sample') : images;
}

function readTaskId(task: string): TaskRef | undefined {
  try {
    return parseTaskRef(task, TASK_SOURCE_NAMES);
  } catch (error) {
    if (error instanceof TaskRefError) return undefined;
    throw error;
  }
}
