import type { Message } from '@a2a-js/sdk';

/** Tasks whose latest load's messages are remembered: about the tasks being updated at once. */
const REMEMBERED_LOADS = 512;

/**
 * The history messages a task store handed out, so that saving them back copies none of them again. A
 * status update loads its task, adds one message to the history and saves it: copying every message on
 * the way in as well as on the way out made each progress line of an assessment cost its whole history
 * twice (the largest item of the green agent's profile at 128 tasks). A message handed out by the latest
 * load of its task is a copy nobody else holds: saved back, it is stored as it is, changed or not, and
 * only the messages that are new since the load are copied. (What the store keeps then is the object the
 * saver holds; the SDK's request handler, the one saver, never changes a message it has saved.)
 */
export class IssuedMessages {
  /** By task key, the messages of its latest load; the oldest loads are forgotten first. */
  private readonly latest = new Map<string, readonly Message[]>();
  private copiedCount = 0;

  /** Messages copied on their way into the store so far: those not handed out by their task's latest load. */
  get copied(): number {
    return this.copiedCount;
  }

  /** Copies of `history` to hand out with a load of the task `key`. */
  issue(key: string, history: readonly Message[]): Message[] {
    const copies = history.map((message) => copyOf(message));
    this.latest.delete(key);
    this.latest.set(key, copies);
    if (this.latest.size > REMEMBERED_LOADS) this.latest.delete(this.latest.keys().next().value ?? '');
    return copies;
  }

  /** What to store of `history`, saved to the task `key`: the messages its latest load handed out as they are, copies of the rest. */
  take(key: string, history: readonly Message[]): Message[] {
    const issued = new Set(this.latest.get(key));
    this.latest.delete(key);
    return history.map((message) => {
      if (issued.has(message)) return message;
      this.copiedCount += 1;
      return copyOf(message);
    });
  }

  /** Forgets what was handed out for the task `key` (it left the store). */
  forget(key: string): void {
    this.latest.delete(key);
  }
}

/**
 * A deep copy that shares strings: they cannot change, and structuredClone copies every character of
 * them. A task holds each of its messages, so with a 3 MiB message in its history each status update
 * (a load and a save) copied megabytes; this copies objects and arrays only. Bytes are copied as a
 * Buffer, values of other kinds as structuredClone copies them.
 */
export function copyOf<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) copy[index] = copyOf(value[index]);
    return copy as T;
  }
  if (Buffer.isBuffer(value)) return Buffer.from(value) as T;
  if (!isPlainObject(value)) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (const key of Object.keys(source)) copy[key] = copyOf(source[key]);
  return copy as T;
}

// Made by an object literal or JSON.parse, in this realm or another (a test runner's, say).
function isPlainObject(value: object): boolean {
  const prototype: object | null = Object.getPrototypeOf(value);
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}
