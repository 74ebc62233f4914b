import type { Message } from '@a2a-js/sdk';

/**
 * The history messages of a task store, which nobody can change once stored. A status update loads its
 * task, adds one message to the history and saves it: copying every message on the way in and out made
 * each progress line of an assessment cost its whole history twice (the largest item of the green
 * agent's profile at 128 tasks, then, after copying only on the way out, still 5% of it). A stored
 * message is a frozen copy, so a load hands out the stored messages themselves (in an array of its own)
 * and a save keeps any of them it gets back as they are: only messages new to the store are copied.
 * Changing a loaded message throws; the SDK's request handler adds messages to a history, never changes
 * one. A message holding bytes cannot be frozen (a Buffer's contents cannot): it is copied at each load.
 */
export class StoredMessages {
  private readonly sealed = new WeakSet<Message>();
  private copiedCount = 0;

  /** Messages copied on their way into the store so far: those that were not already stored. */
  get copied(): number {
    return this.copiedCount;
  }

  /** What to store of `history`: its stored messages as they are, frozen copies of the rest. */
  keep(history: readonly Message[]): Message[] {
    return history.map((message) => {
      if (this.sealed.has(message)) return message;
      this.copiedCount += 1;
      const copy = copyOf(message);
      if (deepFreeze(copy)) this.sealed.add(copy);
      return copy;
    });
  }

  /** What a load hands out of a stored history: its frozen messages as they are, copies of those holding bytes. */
  handOut(history: readonly Message[]): Message[] {
    return history.map((message) => (this.sealed.has(message) ? message : copyOf(message)));
  }
}

/** Freezes `value` and all it holds; false when it holds bytes, which stay as they are. */
function deepFreeze(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (ArrayBuffer.isView(value)) return false;
  let frozen = true;
  for (const key of Object.keys(value)) frozen = deepFreeze((value as Record<string, unknown>)[key]) && frozen;
  Object.freeze(value);
  return frozen;
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
