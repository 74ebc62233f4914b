// Driver → green: `Task ID: <source>:<id>` (e.g. `Task ID: arvo:14368`). The receiver checks the task id
// (parseTaskRef of @arvo-rca/common, against the sources it knows); this vocabulary only finds it.

// The task id is the whole word after `Task ID:` on that line, so that a malformed one is seen whole
// (`arvo:` must not pass for the bare id `arvo`); punctuation that ends a sentence is not part of it.
const TASK_ID_LINE = /task\s+id\s*:[ \t]*(\S+)/i;
const SENTENCE_END = /[.,;!?]+$/;

/**
 * The task id of the `Task ID: <task id>` line in a driver's text, as written and not yet validated
 * (`arvo:` stays `arvo:`, for the receiver to refuse by name); undefined when the text has no such line.
 */
export function findTaskId(text: string): string | undefined {
  const taskId = TASK_ID_LINE.exec(text)?.[1].replace(SENTENCE_END, '');
  return taskId || undefined;
}
