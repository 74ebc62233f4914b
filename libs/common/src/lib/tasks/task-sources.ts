// The task sources every green agent knows and the Docker image of each source's tasks. The green agent
// adds where each source's files are (its configuration); the runner makes the images before it starts one.

/** Each source's name, the `<source>` of `<source>:<id>`, and the image of its tasks, `{id}` standing for the id. */
export const TASK_SOURCE_IMAGES = {
  arvo: 'n132/arvo:{id}-vul',
  sample: 'arvo-rca-sample:{id}-vul',
} as const;

export type TaskSourceName = keyof typeof TASK_SOURCE_IMAGES;

// Object.keys types its keys as plain strings; these are the table's own.
export const TASK_SOURCE_NAMES = Object.keys(TASK_SOURCE_IMAGES) as TaskSourceName[];

export function isTaskSourceName(name: string): name is TaskSourceName {
  return Object.hasOwn(TASK_SOURCE_IMAGES, name);
}

/** The image of task `id` under `imageTemplate`. */
export function fillImageTemplate(imageTemplate: string, id: string): string {
  return imageTemplate.replaceAll('{id}', id);
}

/** The image of task `<source>:<id>`. */
export function taskImage(source: TaskSourceName, id: string): string {
  return fillImageTemplate(TASK_SOURCE_IMAGES[source], id);
}
