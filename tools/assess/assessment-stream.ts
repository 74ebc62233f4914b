// One green agent's answer to an assessment (new or resumed), as the runner follows it: the record's
// folder from the first status that names it, each task's progress, the record's files when the green
// agent sends them, then the Result and its file.
import { parseAssessmentSaved, parseTaskProgressLines, type PeerEvent, type TaskProgressLine } from '@arvo-rca/a2a-protocol';
import { RUN_RECORD_ARTIFACT } from '@arvo-rca/run-record';
import { CodedError } from '@arvo-rca/common';
import type { AssessmentResult } from '@arvo-rca/results';
import type { ShardReport } from './green-shards';

export type GreenFailureCode =
  /** The green agent rejected the request and ran nothing (a bad request, a refused resume); an older one answers with a bare message. */
  | 'GREEN_REFUSED'
  /** The stream broke: the green agent died or the connection to it went. */
  | 'GREEN_STOPPED'
  /** The assessment ended without a Result. */
  | 'NO_RESULT';

/** An assessment a green agent did not see through; `recordDir` is its record's folder when it had begun one. */
export class GreenFailure extends CodedError<GreenFailureCode> {
  constructor(
    code: GreenFailureCode,
    readonly green: string,
    message: string,
    readonly recordDir?: string,
  ) {
    super(code, message);
  }
}

/** The green agents that did not see their part through, named together once every part has ended. */
export class AssessmentFailed extends Error {
  override readonly name = 'AssessmentFailed';

  constructor(readonly failures: readonly GreenFailure[]) {
    super(failures.map((failure) => failure.message).join('\n'));
  }

  /** The records a resume can go on with: of the parts that began one and were not refused. */
  get resumable(): { green: string; recordDir: string }[] {
    return this.failures.flatMap(({ code, green, recordDir }) => (recordDir !== undefined && code !== 'GREEN_REFUSED' ? [{ green, recordDir }] : []));
  }
}

/** Who hears of the assessment as it runs. */
export interface AssessmentWatch {
  /** The record's folder, once, as soon as the green agent names it. */
  recorded: (recordDir: string) => void;
  progress: (line: TaskProgressLine) => void;
  /** The data of a `Run record` artifact: kept before the next event is read, so that the record's files are written in the order they were sent. */
  kept: (data: readonly unknown[]) => Promise<void>;
}

/** Follows `events` to the end; the Result and where it was saved, or a GreenFailure that says how it ended. */
export async function followAssessment(green: string, events: AsyncIterable<PeerEvent>, watch: AssessmentWatch): Promise<ShardReport> {
  let result: AssessmentResult | undefined;
  let recordDir: string | undefined;
  let file: string | undefined;
  let last: PeerEvent | undefined;
  try {
    for await (const event of events) {
      last = event;
      if (event.kind === 'message' || ((event.kind === 'status' || event.kind === 'task') && event.state === 'rejected'))
        throw new GreenFailure('GREEN_REFUSED', green, `the green agent at ${green} refused: ${event.text}`, recordDir);
      if (event.kind === 'artifact') {
        if (event.name === 'Result') result = event.data[0] as AssessmentResult;
        else if (event.name === RUN_RECORD_ARTIFACT) await watch.kept(event.data);
        continue;
      }
      const saved = parseAssessmentSaved(event.data);
      if (saved && recordDir === undefined) watch.recorded(saved.recordDir);
      recordDir = saved?.recordDir ?? recordDir;
      file = saved?.resultsFile ?? file;
      for (const line of event.kind === 'status' ? parseTaskProgressLines(event.data) : []) watch.progress(line);
    }
  } catch (error) {
    if (error instanceof GreenFailure) throw error;
    const how = last === undefined ? 'did not answer' : 'stopped answering mid-run';
    throw new GreenFailure('GREEN_STOPPED', green, `the green agent at ${green} ${how}: ${(error as Error).message}`, recordDir);
  }
  if (!result) {
    const ending = last?.kind === 'status' || last?.kind === 'task' ? ` (${last.state}${last.text ? `: ${last.text}` : ''})` : '';
    throw new GreenFailure('NO_RESULT', green, `the green agent at ${green} ended the assessment without a Result${ending}`, recordDir);
  }
  return { green, result, ...(file === undefined ? {} : { file }), ...(recordDir === undefined ? {} : { recordDir }) };
}
