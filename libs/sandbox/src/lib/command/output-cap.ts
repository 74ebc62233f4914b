const EMPTY = Buffer.alloc(0);

/**
 * Keeps the head and the tail of a command's output in fixed memory, whatever the command prints.
 * Bytes are kept raw and decoded once at the end, so a character split across chunks is not damaged;
 * characters cut by the head or tail limit are dropped whole (and counted as elided), not mangled.
 * Memory is taken as the output comes: a command that prints a line holds a few bytes, not the limit
 * (two buffers of half the limit, zeroed, for every command of every task was most of what the green
 * agent allocated at 128 tasks at once); the tail's ring is taken once the head is full.
 */
export class HeadTailCap {
  private readonly headSize: number;
  private head: Buffer = EMPTY;
  private tail: Buffer = EMPTY;
  private headLength = 0;
  private tailStart = 0;
  private tailLength = 0;
  private total = 0;

  constructor(readonly maxBytes: number) {
    if (!Number.isInteger(maxBytes) || maxBytes < 2) throw new RangeError(`maxBytes must be an integer >= 2, got ${maxBytes}`);
    this.headSize = Math.floor(maxBytes / 2);
  }

  get bytesSeen(): number {
    return this.total;
  }

  /** The memory it holds for what it keeps. */
  get bytesHeld(): number {
    return this.head.length + this.tail.length;
  }

  write(chunk: Uint8Array): void {
    this.total += chunk.length;
    const intoHead = Math.min(this.headSize - this.headLength, chunk.length);
    if (intoHead > 0) {
      this.growHead(this.headLength + intoHead);
      this.head.set(chunk.subarray(0, intoHead), this.headLength);
      this.headLength += intoHead;
    }
    if (intoHead < chunk.length) this.writeTail(chunk.subarray(intoHead));
  }

  /** The kept output as text (invalid UTF-8 replaced by U+FFFD), with a marker where bytes were left out. */
  finish(): { output: string; outputBytes: number; elidedBytes: number } {
    const tail = this.tailBytes();
    if (this.total <= this.maxBytes) {
      return { output: decode(Buffer.concat([this.head.subarray(0, this.headLength), tail])), outputBytes: this.total, elidedBytes: 0 };
    }
    const head = this.head.subarray(0, completeLength(this.head.subarray(0, this.headLength)));
    const keptTail = tail.subarray(leadingContinuationBytes(tail));
    const elided = this.total - head.length - keptTail.length;
    return {
      output: `${decode(head)}\n[... ${elided} bytes elided ...]\n${decode(keptTail)}`,
      outputBytes: this.total,
      elidedBytes: elided,
    };
  }

  // At least `needed` bytes of head, doubling as it fills, never past its half of the limit.
  private growHead(needed: number): void {
    if (needed <= this.head.length) return;
    const grown = Buffer.allocUnsafe(Math.min(this.headSize, Math.max(needed, this.head.length * 2, 256)));
    this.head.copy(grown, 0, 0, this.headLength);
    this.head = grown;
  }

  private writeTail(bytes: Uint8Array): void {
    if (this.tail.length === 0) this.tail = Buffer.allocUnsafe(this.maxBytes - this.headSize);
    const size = this.tail.length;
    if (bytes.length >= size) {
      this.tail.set(bytes.subarray(bytes.length - size));
      this.tailStart = 0;
      this.tailLength = size;
      return;
    }
    let end = (this.tailStart + this.tailLength) % size;
    const first = Math.min(bytes.length, size - end);
    this.tail.set(bytes.subarray(0, first), end);
    this.tail.set(bytes.subarray(first), 0);
    end = this.tailLength + bytes.length;
    if (end > size) {
      this.tailStart = (this.tailStart + end - size) % size;
      this.tailLength = size;
    } else {
      this.tailLength = end;
    }
  }

  private tailBytes(): Buffer {
    if (this.tailLength === 0) return EMPTY;
    const size = this.tail.length;
    const firstPart = this.tail.subarray(this.tailStart, Math.min(size, this.tailStart + this.tailLength));
    const wrapped = this.tail.subarray(0, this.tailLength - firstPart.length);
    return Buffer.concat([firstPart, wrapped]);
  }
}

// ArrayBuffer.prototype.transfer is ES2024 (Node 22 and later); the project's lib stops at ES2023.
interface ReleasableBuffer {
  readonly byteLength: number;
  transfer?: (newByteLength: number) => ArrayBuffer;
}

/**
 * Frees the memory of a chunk read from a socket or a pipe now, once nothing holds a view of it, rather
 * than when the collector gets to it. Each read comes in a buffer of its own that is dead once read; on
 * Node 24 the collector let about 70 MiB of them pile up while a gigabyte streamed through (Node 20: 15 to
 * 30 MiB). Only a chunk that starts its buffer and fills most of it is freed: a pooled Buffer (less
 * than half its pool) or a slice of a larger one is left alone. A no-op where `transfer` is missing.
 */
export function releaseChunk(chunk: Buffer): void {
  const buffer: ReleasableBuffer = chunk.buffer;
  if (chunk.byteOffset !== 0 || chunk.length * 2 <= buffer.byteLength) return;
  buffer.transfer?.(0); // detaches the buffer, which frees its memory
}

function decode(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

// Length of `bytes` without a trailing, incomplete UTF-8 sequence (one cut by the head limit).
function completeLength(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue;
    const expected = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return expected > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

// Continuation bytes at the start of the tail belong to a character whose start was elided.
function leadingContinuationBytes(bytes: Uint8Array): number {
  let count = 0;
  while (count < Math.min(3, bytes.length) && (bytes[count] & 0xc0) === 0x80) count++;
  return count;
}
