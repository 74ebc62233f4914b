import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { TaskEvents } from '@arvo-rca/a2a-protocol';
import { formatRunRecord, RUN_RECORD_ARTIFACT, taskPiece, type RunRecordPiece } from '@arvo-rca/run-record';
import type { AssessmentListener, RecordWrite } from '../assessment-listener';

const logger = new Logger('RecordSender');

/**
 * What sends an assessment's record to its requester as it is written (`config.send_record`): each write as
 * a `Run record` artifact, all of one artifact id, so that the task store keeps the newest only; and how far
 * the requester has taken them.
 */
export function recordSender(events: TaskEvents): Required<Pick<AssessmentListener, 'wrote' | 'taken'>> {
  const artifactId = randomUUID();
  let recordId = '';
  const wrote = (write: RecordWrite): void => {
    // The header comes first, as the session begins: it names the record the tasks after it belong to.
    if (write.kind === 'assessment') recordId = write.assessment.id;
    const piece: RunRecordPiece =
      write.kind === 'assessment' ? { recordId, kind: 'assessment', assessment: write.assessment } : taskPiece(recordId, write.task);
    if (piece.kind === 'task' && piece.leftOut.length > 0) {
      const files = piece.leftOut.map(({ name, chars }) => `${name} (${chars} characters)`).join(', ');
      logger.warn(`${write.kind === 'task' ? write.task.record.task : ''}: ${files} not sent to the requester: over the bound of one artifact; kept here`);
    }
    events.artifact(RUN_RECORD_ARTIFACT, formatRunRecord(piece), artifactId);
  };
  return { wrote, taken: (signal) => events.caughtUp(signal) };
}
