import { CodedError, LOC_JSON_PATH } from '@arvo-rca/common';
import type { SubmissionRefusal } from '@arvo-rca/rca-eval';
import type { Sandbox } from '@arvo-rca/sandbox';

/** `loc.json` as the solver left it: its text, nothing there, or something there the sandbox would not read (and why). */
export type SubmissionFile = { kind: 'text'; text: string } | { kind: 'missing' } | SubmissionRefusal;

/**
 * Reads the submission once. Only a file that is not there is a missing submission: a FIFO, a folder, a
 * link, a file past the read limit or one the sandbox cannot read is a refusal, with the sandbox's reason,
 * so that the record says what the solver left rather than that it left nothing.
 */
export async function readSubmissionFile(sandbox: Sandbox): Promise<SubmissionFile> {
  try {
    return { kind: 'text', text: (await sandbox.readFile(LOC_JSON_PATH)).toString('utf8') };
  } catch (error) {
    if (error instanceof CodedError && error.code === 'FILE_NOT_FOUND') return { kind: 'missing' };
    return { kind: 'refused', reason: refusalReason(error) };
  }
}

// The sandboxes say `cannot read <path>[ in <sandbox>]: <why>[ (in <sandbox>)]`: the record keeps the why,
// without host paths or sandbox names.
function refusalReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return /^cannot read \S+(?: in \S+)?: (.*?)(?: \(in [^()]*\))?$/s.exec(message)?.[1] ?? message;
}
