import { CodedError } from '@arvo-rca/common';

type RecordErrorCode = 'RECORD_MISSING' | 'RECORD_DAMAGED' | 'RESUME_REFUSED' | 'SETTINGS_DIFFER' | 'RECORD_BUSY';

/** A run record that cannot be read or resumed, with the reason in words. */
export class RecordError extends CodedError<RecordErrorCode> {}
