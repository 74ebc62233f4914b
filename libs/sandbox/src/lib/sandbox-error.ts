import { CodedError } from '@arvo-rca/common';

type SandboxErrorCode =
  | 'SANDBOX_UNKNOWN'
  | 'ENGINE_UNAVAILABLE'
  | 'ISOLATION_UNAVAILABLE'
  | 'INVALID_OPTIONS'
  | 'WORKSPACE_MISSING'
  | 'IMAGE_PULL_FAILED'
  | 'IMAGE_PULL_TIMEOUT'
  | 'IMAGE_PULL_CANCELED'
  | 'CONTAINER_CREATE_FAILED'
  | 'CONTAINER_START_FAILED'
  | 'SANDBOX_PREPARE_FAILED'
  | 'SANDBOX_NOT_STARTED'
  | 'EXEC_FAILED'
  | 'FILE_NOT_FOUND'
  | 'FILE_NOT_READABLE'
  | 'FILE_NOT_REGULAR'
  | 'FILE_TOO_LARGE'
  | 'WORKSPACE_COPY_FAILED'
  | 'DISK_LIMIT_EXCEEDED'
  | 'DISK_SHARE_UNAVAILABLE'
  | 'HOST_INODES_LOW'
  | 'FOLDER_COUNT_FAILED';

/** An error of the sandbox layer: a code for programs, a message that names the problem for people. */
export class SandboxError extends CodedError<SandboxErrorCode> {}

/**
 * A task's image that could not be had: the image it tried, for programs too, since a green agent's images
 * come from its own templates (ARVO_IMAGE_TEMPLATE) and a runner elsewhere cannot derive them.
 */
export class ImagePullError extends SandboxError {
  constructor(
    code: Extract<SandboxErrorCode, `IMAGE_PULL_${string}`>,
    readonly image: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** The engine's own words for a failure (dockerode puts them in `json.message`). */
export function engineReason(error: unknown): string {
  const json = (error as { json?: { message?: unknown } } | undefined)?.json;
  if (json && typeof json.message === 'string') return json.message;
  return error instanceof Error ? error.message : String(error);
}
