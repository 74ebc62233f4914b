export type RecordErrorCode = 'RECORD_MISSING' | 'RECORD_DAMAGED' | 'RESUME_REFUSED';

/** A run record that cannot be read or resumed, with the reason in words. */
export class RecordError extends Error {
  constructor(
    readonly code: RecordErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RecordError';
  }
}
