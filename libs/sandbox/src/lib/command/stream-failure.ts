import type { Readable } from 'node:stream';
import { SandboxError } from '../sandbox-error';

/** A stream's failure as a copy into a container sees it; `off` stops watching once the copy is done. */
export interface StreamFailure {
  /** Rejects when the stream breaks or is closed before its end, or was already; never resolves. */
  failed: Promise<never>;
  off(): void;
}

/**
 * Watches a stream that a copy into a container reads: when its writer fails or gives up, the copy must
 * stop instead of waiting for the rest forever. `name` says which stream (`the source tree's stream`).
 */
export function watchStreamFailure(stream: Readable, name: string): StreamFailure {
  let onError: ((error: Error) => void) | undefined;
  let onClose: (() => void) | undefined;
  const failed = new Promise<never>((_resolve, reject) => {
    const closedEarly = (): void => reject(new SandboxError('WORKSPACE_COPY_FAILED', `${name} was closed before its end`));
    // Closed already (its writer failed before the copy began): no 'close' would come.
    if (closedBeforeEnd(stream)) return closedEarly();
    onError = (error) => reject(new SandboxError('WORKSPACE_COPY_FAILED', `${name} broke: ${error.message}`, { cause: error }));
    onClose = () => {
      if (!stream.readableEnded) closedEarly();
    };
    stream.once('error', onError);
    stream.once('close', onClose);
  });
  failed.catch(() => undefined);
  return {
    failed,
    off: () => {
      if (onError) stream.off('error', onError);
      if (onClose) stream.off('close', onClose);
    },
  };
}

/** Closed, or destroyed, without its end. */
export function closedBeforeEnd(stream: Readable): boolean {
  return stream.destroyed && !stream.readableEnded;
}
