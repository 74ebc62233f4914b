// What the runner keeps of one green agent's run record. A green agent that sends its record's files
// (its card declares RUN_RECORD_EXTENSION, and the runner asks) has its record copied into the runner's
// own run directory as they come, under the same id; one that writes into that very directory (a shared
// run directory) is left to it, nothing written twice; an older one's record stays on its side.
import type { AssessmentResult } from '@arvo-rca/results';
import { MAX_RECORD_FILES_CHARS, parseRunRecord, RecordCopy, RecordLayout, type AssessmentFile, type RunRecordPiece } from '@arvo-rca/run-record';

export class RecordKeeper {
  /** The record's folder on the green agent's side, as it named it. */
  private remote?: string;
  /** The record's folder in the runner's run directory: the copy, or the green agent's own when they share it. */
  private local?: string;
  private recordId?: string;
  private copy?: RecordCopy;
  /** Set when the record could not be begun here: it stays on the green agent's side, and what else comes is let go. */
  private unkept = false;

  /**
   * `asked`: whether the request asked for the record's files; `say` prints a line; `suffix` tells the
   * green agent's lines apart when there are several.
   */
  constructor(
    private readonly runDir: string,
    private readonly green: string,
    private readonly asked: boolean,
    private readonly say: (line: string) => void,
    private readonly suffix = '',
  ) {}

  /** The folder a resume goes on with: the record here when there is one, else the green agent's. */
  get folder(): string | undefined {
    return this.local ?? this.remote;
  }

  /** The green agent named its record's folder (a path on its side). */
  named(remoteDir: string): void {
    if (this.remote !== undefined) return;
    this.remote = remoteDir;
    if (!this.asked) this.say(`record:  ${remoteDir}${this.suffix}, on the green agent's side: it sends no record files, so the record stays there`);
  }

  /** The data of a `Run record` artifact, kept before the next event is read; a piece that cannot be kept is named, and the run goes on. */
  async take(data: readonly unknown[]): Promise<void> {
    const piece = parseRunRecord(data);
    if (piece === undefined || this.unkept) return;
    if ('problem' in piece) return this.notKept(piece.problem);
    try {
      await this.keep(piece);
    } catch (error) {
      // Without its header the record cannot be begun here: it stays on the green agent's side, and the rest of it is let go.
      this.unkept = piece.kind === 'assessment' && this.local === undefined;
      this.notKept((error as Error).message);
    }
  }

  /**
   * The Result's file once the run has ended: written into the copy, the green agent's own in a shared
   * folder, else (an older green agent, or a copy that could not be written) its file on its side.
   */
  async keepResult(result: AssessmentResult, remoteFile: string | undefined): Promise<string | undefined> {
    if (this.local !== undefined && this.copy === undefined) return new RecordLayout(this.local).resultFile;
    try {
      return (await this.copy?.writeResult(result)) ?? remoteFile;
    } catch (error) {
      this.say(`record:  the Result was not kept here: ${(error as Error).message}; it is in ${remoteFile ?? "the green agent's record"}`);
      return remoteFile;
    }
  }

  private async keep(piece: RunRecordPiece): Promise<void> {
    if (piece.kind === 'assessment') return this.local === undefined ? this.begin(piece.assessment) : this.copy?.writeAssessment(piece.assessment);
    if (piece.recordId !== this.recordId) throw new Error(`task ${piece.task.record.task} came for no record begun here`);
    await this.copy?.writeTask(piece.task);
    const where = new RecordLayout(this.remote ?? piece.recordId).taskFolder(piece.task.record.task);
    for (const { name, chars } of piece.leftOut) {
      const size = `${chars.toLocaleString('en-US')} characters`;
      this.say(
        `record:  ${piece.task.record.task}: ${name} (${size}) is over the ${MAX_RECORD_FILES_CHARS.toLocaleString('en-US')} a task sends; it stays in ${where}`,
      );
    }
  }

  private notKept(reason: string): void {
    const stays = this.unkept ? `; the record stays on the green agent's side${this.remote ? ` in ${this.remote}` : ''}` : '';
    this.say(`record:  a file the green agent at ${this.green} sent was not kept here: ${reason}${stays}`);
  }

  private async begin(assessment: AssessmentFile): Promise<void> {
    this.copy = await RecordCopy.begin(this.runDir, assessment);
    this.local = RecordLayout.of(this.runDir, assessment.id).folder;
    this.recordId = assessment.id;
    const from = this.copy ? ` (kept here as the green agent at ${this.green} writes it${this.remote ? ` in ${this.remote}` : ''})` : '';
    this.say(`record:  ${this.local}${this.suffix}${from}`);
  }
}
