// A task's workspace as the solver, the sandboxes and the judge see it; the one place that spells it out.
//
//   /workspace/
//     src-vul/<project>/...     the vulnerable tree
//     <id>_error.txt            the sanitizer report (error.txt when the task's id is hidden)
//     shared/loc.json           the solver's answer

/** Where the workspace is inside a sandbox, and where its commands run. */
export const WORKSPACE = '/workspace';
/** The vulnerable source tree's folder in the workspace. */
export const SOURCE_TREE = 'src-vul';
/** The folder the solver writes its answer into. */
export const SHARED_DIR = 'shared';
/** The solver's answer. */
export const LOC_JSON_PATH = `${WORKSPACE}/${SHARED_DIR}/loc.json`;

/** The sanitizer report's name: `<id>_error.txt` as the original names it, or `error.txt` when the id is hidden. */
export function errorReportName(taskId: string | null): string {
  return taskId === null ? 'error.txt' : `${taskId}_error.txt`;
}

/** The report's path as a solver finds it in a message: `/workspace/<id>_error.txt` or `/workspace/error.txt`. */
export const ERROR_REPORT_PATTERN = new RegExp(`${WORKSPACE}/(?:[\\w.-]+_)?error\\.txt`);
