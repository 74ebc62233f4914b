// The images the tasks of a run need, derived as the green agent derives them: the task's source (a bare
// id is an ARVO task; sources are read case-blind) and that source's image template (TASK_SOURCE_IMAGES).
import { parseTaskKey } from '@arvo-rca/a2a-protocol';
import { isTaskSourceName, taskImage, type TaskSourceName } from '@arvo-rca/common';

/** An image some tasks need: the first task's source and id name it, the others share it. */
export interface TaskImage {
  image: string;
  source: TaskSourceName;
  id: string;
  tasks: string[];
}

/** Each image once, in the order of the list; a task of no known source needs none (the green agent refuses it by name). */
export function imagesOfTasks(tasks: readonly string[]): TaskImage[] {
  const images = new Map<string, TaskImage>();
  for (const task of tasks) {
    const ref = parseTaskKey(task);
    const source = ref?.source.toLowerCase() ?? '';
    if (!ref || !isTaskSourceName(source)) continue;
    const image = taskImage(source, ref.id);
    const known = images.get(image);
    if (known) known.tasks.push(task);
    else images.set(image, { image, source, id: ref.id, tasks: [task] });
  }
  return [...images.values()];
}
