// The viewer's JSON API; its types are the server's (src/app/viewer-api.ts).

/** @typedef {import('../app/viewer-api').RunList} RunList */
/** @typedef {import('../app/viewer-api').Comparison} Comparison */
/** @typedef {import('../app/viewer-api').TaskPage} TaskPage */
/** @typedef {import('../app/viewer-api').TrajectoryView} TrajectoryView */
/** @typedef {import('../app/viewer-api').TaskLog} TaskLog */
/** @typedef {import('../app/viewer-api').ApiError} ApiError */

/**
 * @template T
 * @param {string} path
 * @returns {Promise<T>}
 */
async function get(path) {
  const response = await fetch(path, { headers: { Accept: 'application/json' } });
  const body = await response.json();
  if (!response.ok) throw new Error(/** @type {ApiError} */ (body).message ?? `${response.status} ${response.statusText}`);
  return /** @type {T} */ (body);
}

/** @param {string[]} parts */
const taskPath = (...parts) => `/api/runs/${parts.map(encodeURIComponent).join('/')}`;

/** @returns {Promise<RunList>} */
export const fetchRuns = () => get('/api/runs');

/**
 * @param {string[]} keys
 * @returns {Promise<Comparison>}
 */
export const fetchComparison = (keys) => get(`/api/compare?runs=${keys.map(encodeURIComponent).join(',')}`);

/**
 * @param {string} run
 * @param {string} task
 * @returns {Promise<TaskPage>}
 */
export const fetchTask = (run, task) => get(taskPath(run, 'tasks', task));

/**
 * @param {string} run
 * @param {string} task
 * @returns {Promise<TrajectoryView>}
 */
export const fetchTrajectory = (run, task) => get(`${taskPath(run, 'tasks', task)}/trajectory`);

/**
 * @param {string} run
 * @param {string} task
 * @returns {Promise<TaskLog>}
 */
export const fetchLog = (run, task) => get(`${taskPath(run, 'tasks', task)}/log`);
