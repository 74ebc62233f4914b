// Every container and image this project makes carries these labels, so that a reaper, a test or an
// operator can find exactly ours with `docker ps -a --filter label=arvo-rca.owner`.
export const LABEL_OWNER = 'arvo-rca.owner';
export const LABEL_TASK = 'arvo-rca.task';
export const LABEL_CONTEXT = 'arvo-rca.context';
export const LABEL_RECIPE = 'arvo-rca.recipe';
/** The host path of the task folder a container was made for, so that a reaper can remove both. */
export const LABEL_TASK_FOLDER = 'arvo-rca.task-folder';

export function ownerFilter(owner: string): { label: string[] } {
  return { label: [`${LABEL_OWNER}=${owner}`] };
}
