import { HeadTailCap, releaseChunk } from './output-cap';

function capped(maxBytes: number, chunks: (string | Buffer)[]): ReturnType<HeadTailCap['finish']> {
  const cap = new HeadTailCap(maxBytes);
  for (const chunk of chunks) cap.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return cap.finish();
}

describe('HeadTailCap', () => {
  it('returns short output whole', () => {
    expect(capped(100, ['hello ', 'world\n'])).toEqual({ output: 'hello world\n', outputBytes: 12, elidedBytes: 0 });
  });

  it('keeps exactly maxBytes without a marker when the output fits', () => {
    expect(capped(10, ['0123456789'])).toEqual({ output: '0123456789', outputBytes: 10, elidedBytes: 0 });
  });

  it('keeps the head and tail halves and says how many bytes were elided', () => {
    const text = 'abcdefghijklmnopqrstuvwxyz';
    const result = capped(10, [text]);

    expect(result).toEqual({ output: 'abcde\n[... 16 bytes elided ...]\nvwxyz', outputBytes: 26, elidedBytes: 16 });
  });

  it('gives the same result whatever the chunking', () => {
    const text = 'line 1\nline 2\nline 3\nline 4\nline 5\n'.repeat(7);
    const whole = capped(40, [text]);
    const byteByByte = capped(
      40,
      [...Buffer.from(text)].map((byte) => Buffer.from([byte])),
    );
    const uneven = capped(40, [text.slice(0, 3), text.slice(3, 50), text.slice(50, 51), text.slice(51)]);

    expect(byteByByte).toEqual(whole);
    expect(uneven).toEqual(whole);
    expect(whole.output.endsWith(text.slice(-20))).toBe(true);
  });

  it('never splits a multi-byte character at a chunk boundary', () => {
    const euro = Buffer.from('€'); // three bytes
    const result = capped(100, [euro.subarray(0, 1), euro.subarray(1, 2), euro.subarray(2)]);

    expect(result.output).toBe('€');
  });

  it('drops characters cut by the head or tail limit whole instead of mangling them', () => {
    const result = capped(10, ['€€€€€€€€€€']); // 30 bytes; head and tail keep one whole € each

    expect(result.output).toBe('€\n[... 24 bytes elided ...]\n€');
    expect(result.output).not.toContain('\uFFFD');
    expect(result.elidedBytes).toBe(24);
  });

  it('replaces invalid UTF-8 bytes with U+FFFD', () => {
    const result = capped(100, [Buffer.from([0x6f, 0x6b, 0xff, 0xfe, 0x20, 0xc3, 0x28])]);

    expect(result.output).toBe('ok\uFFFD\uFFFD \uFFFD(');
  });

  it('holds a gigabyte-sized stream in fixed memory', () => {
    const cap = new HeadTailCap(1024);
    const chunk = Buffer.alloc(1 << 20, 'a');
    for (let i = 0; i < 1024; i++) cap.write(chunk);
    const result = cap.finish();

    expect(result.outputBytes).toBe(1 << 30);
    expect(result.elidedBytes).toBe((1 << 30) - 1024);
    expect(result.output).toBe(`${'a'.repeat(512)}\n[... ${(1 << 30) - 1024} bytes elided ...]\n${'a'.repeat(512)}`);
    expect(cap.bytesHeld).toBe(1024);
  });

  it('takes memory as the output comes, not the whole limit for every command', () => {
    const cap = new HeadTailCap(100 * 1024);
    expect(cap.bytesHeld).toBe(0);
    cap.write(Buffer.from('one line\n'));
    expect(cap.bytesHeld).toBeLessThanOrEqual(256);
    cap.write(Buffer.alloc(20 * 1024, 'b'));
    expect(cap.bytesHeld).toBeLessThanOrEqual(50 * 1024);
    cap.write(Buffer.alloc(40 * 1024, 'c'));
    expect(cap.bytesHeld).toBe(100 * 1024);

    expect(cap.finish().output).toBe(`one line\n${'b'.repeat(20 * 1024)}${'c'.repeat(40 * 1024)}`);
  });
});

describe('releaseChunk', () => {
  // ArrayBuffer.prototype.transfer came with Node 22; on Node 20 a chunk waits for the collector as before.
  const itFrees = Number(process.versions.node.split('.')[0]) >= 22 ? it : it.skip;

  itFrees('frees a chunk that has its buffer to itself, after the cap kept what it keeps', () => {
    const cap = new HeadTailCap(8);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    cap.write(chunk);
    releaseChunk(chunk);

    expect(chunk.buffer.byteLength).toBe(0);
    expect(cap.finish().output).toBe(`aaaa\n[... ${64 * 1024 - 8} bytes elided ...]\naaaa`);
  });

  itFrees('frees a read that fills most of a larger buffer', () => {
    const chunk = Buffer.alloc(64 * 1024).subarray(0, 48 * 1024);
    releaseChunk(chunk);

    expect(chunk.buffer.byteLength).toBe(0);
  });

  it('leaves pooled buffers and their neighbours alone', () => {
    const pooled = Buffer.from('first');
    const neighbour = Buffer.from('second');
    releaseChunk(pooled);

    expect(pooled.toString()).toBe('first');
    expect(neighbour.toString()).toBe('second');
  });

  it('leaves a slice of a larger buffer alone', () => {
    const whole = Buffer.alloc(64 * 1024, 'b');
    releaseChunk(whole.subarray(1024));
    releaseChunk(whole.subarray(0, 1024));

    expect(whole.buffer.byteLength).toBe(64 * 1024);
    expect(whole.toString('latin1', 0, 3)).toBe('bbb');
  });
});
