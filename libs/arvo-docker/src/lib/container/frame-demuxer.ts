export type StreamType = 'stdout' | 'stderr';

const HEADER_BYTES = 8;

/**
 * Splits the engine's multiplexed exec stream (8-byte header, then payload) into stdout and stderr
 * payloads, in the order they arrive, without copying payloads or buffering more than a header.
 */
export class FrameDemuxer {
  private readonly header = Buffer.alloc(HEADER_BYTES);
  private headerLength = 0;
  private remaining = 0;
  private type: StreamType = 'stdout';

  constructor(private readonly onPayload: (type: StreamType, payload: Buffer) => void) {}

  push(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - offset);
        this.onPayload(this.type, chunk.subarray(offset, offset + take));
        this.remaining -= take;
        offset += take;
        continue;
      }
      const take = Math.min(HEADER_BYTES - this.headerLength, chunk.length - offset);
      chunk.copy(this.header, this.headerLength, offset, offset + take);
      this.headerLength += take;
      offset += take;
      if (this.headerLength === HEADER_BYTES) {
        this.type = this.header[0] === 2 ? 'stderr' : 'stdout';
        this.remaining = this.header.readUInt32BE(4);
        this.headerLength = 0;
      }
    }
  }
}
