// The judge's failures that its caller must handle: each carries a code and says what is missing.
import { CodedError } from '@arvo-rca/common';

type JudgeErrorCode =
  | 'PARSER_UNAVAILABLE'
  /** Results to combine are not the shards 0 to n-1 of one split, each once. */
  | 'SHARDS_MISMATCH';

export class JudgeError extends CodedError<JudgeErrorCode> {}
