/**
 * An error with a code for programs and a message that names the problem for people. A family of errors
 * is one line, `class SandboxError extends CodedError<SandboxErrorCode> {}`; its `name` is the subclass's
 * own, so a log line and an exit status say which family failed.
 */
export class CodedError<Code extends string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}
