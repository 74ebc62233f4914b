// The trajectory's file on disk: one JSON document that grows in place, step after step.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Trajectory } from '@arvo-rca/common';

/** A slot laid out to grow holds twice its length and this much more: the file is laid out again rarely. */
const ROOM_BYTES = 4096;

/** A stretch of the file that steps write in place: `length` bytes of JSON, then spaces up to `capacity`. */
interface Slot {
  offset: number;
  length: number;
  capacity: number;
}

/** A JSON array, with the number of its entries on disk. */
interface ListSlot extends Slot {
  count: number;
}

/** A JSON text rewritten whole when it changes. */
interface TextSlot extends Slot {
  text: string;
}

interface Layout {
  modelCalls: ListSlot;
  commands: ListSlot;
  /** The rest of info, its closing brace included. */
  rest: TextSlot;
  /** Ends the file but for the tail, so it grows without bound. */
  messages: ListSlot;
  size: number;
}

interface Write {
  position: number;
  bytes: Buffer;
}

/**
 * One run's trajectory on disk, laid out as
 * `{"info":{"model_calls":[..]  ,"commands":[..]  ,"exit_status":..}  ,"messages":[..],"trajectory_format":".."}`:
 * mini-swe-agent's keys, with spaces (which JSON ignores) after the info lists and the rest of info.
 *
 * Info comes first because its lists grow with the steps too: behind the messages, every step would
 * rewrite them whole. In front, they get room to grow in place, and the messages end the file and
 * grow past its end. The first save writes the file whole. A step then makes one positioned write
 * each: its new messages with the tail, over the old tail; its new info entries into their room; the
 * rest of info (a few hundred bytes) over the old, padded with spaces where it got shorter. So a step
 * writes its own bytes, not the run's, and as nothing grows but into spaces or past the end, each
 * write takes the file from one whole document to another, with nothing to truncate. A reader, or a
 * SIGKILL, between two writes of a step finds a whole document holding part of the step (its
 * messages, not yet its model call); inside one write, only if the kernel stops it between two pages,
 * which it does on a SIGKILL (seen in CI: a 140 KB write of a long observation cut at a page boundary).
 * So a write in place is two pages long at most, a window of microseconds; a step with a larger write
 * (a long reply or observation) has the file written whole instead. A full room has the file written
 * whole again with more
 * room, and the run's end has it written whole and compact, each time to a temporary file renamed
 * over the target. Entries on disk are not compared again: a run's lists only grow.
 */
export class TrajectoryFile {
  private layout?: Layout;

  constructor(readonly path: string) {}

  /** Saves the run so far; returns the bytes written. */
  async save(trajectory: Trajectory): Promise<number> {
    const before = trajectory.info.exit_status === null ? this.layout : undefined;
    const step = before && planStep(before, trajectory);
    if (!before || !step || !step.writes.every(fewPages) || !(await this.writeInPlace(before.size, step))) return this.writeWhole(trajectory);
    return step.writes.reduce((total, write) => total + write.bytes.length, 0);
  }

  /** False when the file is not as the last save left it: then it is written whole. */
  private async writeInPlace(size: number, step: { writes: Write[]; layout: Layout }): Promise<boolean> {
    const handle = await open(this.path, 'r+').catch(() => undefined);
    if (!handle) return false;
    this.layout = undefined; // until every write is done
    try {
      if ((await handle.stat()).size !== size) return false;
      for (const { position, bytes } of step.writes) await writeFully(handle, bytes, position);
      this.layout = step.layout;
      return true;
    } finally {
      await handle.close();
    }
  }

  private async writeWhole(trajectory: Trajectory): Promise<number> {
    const ended = trajectory.info.exit_status !== null;
    const { bytes, layout } = layOut(trajectory, (length) => (ended ? length : 2 * length + ROOM_BYTES));
    await mkdir(dirname(this.path), { recursive: true });
    const temporary = join(dirname(this.path), `.${basename(this.path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await writeFile(temporary, bytes);
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    this.layout = layout;
    return bytes.length;
  }
}

// The unit the kernel copies a write in: a SIGKILL can stop a write between two pages, never inside one.
const PAGE_BYTES = 4096;

/** A write two pages long at most (so it crosses two page boundaries at most): what an ordinary step writes. */
function fewPages({ bytes }: Write): boolean {
  return bytes.length <= 2 * PAGE_BYTES;
}

function layOut(trajectory: Trajectory, capacity: (length: number) => number): { bytes: Buffer; layout: Layout } {
  const { model_calls, commands, ...rest } = trajectory.info;
  const parts: Buffer[] = [];
  let size = 0;
  const put = (text: string, room?: (length: number) => number): Slot => {
    const bytes = Buffer.from(text);
    const slot = { offset: size, length: bytes.length, capacity: room ? room(bytes.length) : Infinity };
    const padding = room ? slot.capacity - slot.length : 0;
    parts.push(bytes, Buffer.alloc(padding, ' '));
    size += bytes.length + padding;
    return slot;
  };
  put('{"info":{"model_calls":');
  const modelCallsSlot = { ...put(list(model_calls), capacity), count: model_calls.length };
  put(',"commands":');
  const commandsSlot = { ...put(list(commands), capacity), count: commands.length };
  const restText = restOfInfo(rest);
  const restSlot = { ...put(restText, capacity), text: restText };
  put(',"messages":');
  const messagesSlot = { ...put(list(trajectory.messages)), count: trajectory.messages.length };
  put(tail(trajectory));
  return { bytes: Buffer.concat(parts, size), layout: { modelCalls: modelCallsSlot, commands: commandsSlot, rest: restSlot, messages: messagesSlot, size } };
}

/** The writes of one step, in order, and the layout after them; undefined when a room is full. */
function planStep(layout: Layout, trajectory: Trajectory): { writes: Write[]; layout: Layout } | undefined {
  const { model_calls, commands, ...rest } = trajectory.info;
  const writes: Write[] = [];
  const closing = Buffer.from(tail(trajectory));
  const messages = append(layout.messages, trajectory.messages, writes, closing);
  const modelCalls = messages && append(layout.modelCalls, model_calls, writes);
  const commandsSlot = modelCalls && append(layout.commands, commands, writes);
  const restSlot = commandsSlot && rewrite(layout.rest, restOfInfo(rest), writes);
  if (!messages || !modelCalls || !commandsSlot || !restSlot) return undefined;
  const size = messages.offset + messages.length + closing.length;
  return { writes, layout: { modelCalls, commands: commandsSlot, rest: restSlot, messages, size } };
}

/** Writes the entries past `slot.count` over the closing bracket, with `after` behind them. */
function append(slot: ListSlot, items: readonly unknown[], writes: Write[], after = Buffer.alloc(0)): ListSlot | undefined {
  if (items.length < slot.count) return undefined;
  if (items.length === slot.count) return slot;
  const bytes = Buffer.from(`${entries(items, slot.count)}]`);
  const length = slot.length - 1 + bytes.length;
  if (length > slot.capacity) return undefined;
  writes.push({ position: slot.offset + slot.length - 1, bytes: Buffer.concat([bytes, after]) });
  return { ...slot, length, count: items.length };
}

function rewrite(slot: TextSlot, text: string, writes: Write[]): TextSlot | undefined {
  if (text === slot.text) return slot;
  const bytes = Buffer.from(text);
  if (bytes.length > slot.capacity) return undefined;
  writes.push({ position: slot.offset, bytes: Buffer.concat([bytes, Buffer.alloc(Math.max(0, slot.length - bytes.length), ' ')]) });
  return { ...slot, length: bytes.length, text };
}

/** One entry a line, so that a step's entries are appended as they are. */
function list(items: readonly unknown[]): string {
  return `[${entries(items, 0)}]`;
}

function entries(items: readonly unknown[], from: number): string {
  return items
    .slice(from)
    .map((item, index) => `${from + index === 0 ? '\n' : ',\n'}${JSON.stringify(item)}`)
    .join('');
}

/** `,"exit_status":..,"submission":..}`: info but its lists, after them. */
function restOfInfo(rest: Omit<Trajectory['info'], 'model_calls' | 'commands'>): string {
  return `,${JSON.stringify(rest).slice(1)}`;
}

function tail(trajectory: Trajectory): string {
  return `,"trajectory_format":${JSON.stringify(trajectory.trajectory_format)}}`;
}

async function writeFully(handle: FileHandle, bytes: Buffer, position: number): Promise<void> {
  for (let done = 0; done < bytes.length;) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}
