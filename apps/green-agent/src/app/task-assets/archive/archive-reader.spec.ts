import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser, type ReadEntry } from 'tar';
import { inWholeBlocks, readArchive } from './archive-reader';
import { tarGz, type FixtureEntry } from './tar-fixture.testing';

async function* cutAt(bytes: Buffer, sizes: readonly number[]): AsyncGenerator<Buffer> {
  let at = 0;
  for (let i = 0; at < bytes.length; i += 1) {
    const size = sizes[i % sizes.length];
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

/** A real parser that notes the size of every chunk it is written. */
class NotingParser extends Parser {
  readonly writes: number[] = [];

  override write(chunk: Buffer | string, ...rest: never[]): boolean {
    this.writes.push(chunk.length);
    return super.write(chunk as Buffer, ...rest);
  }
}

describe('inWholeBlocks', () => {
  it('passes the same bytes on, cut only at multiples of 512, however they came in', async () => {
    const bytes = randomBytes(300_000);
    // Chunks smaller than a block, one byte, straddling ones and large ones, as gunzip hands them on.
    const out = await collect(inWholeBlocks(cutAt(bytes, [100, 1, 511, 513, 70_001, 4096, 12_345])));

    expect(Buffer.concat(out).equals(bytes)).toBe(true);
    expect(out.slice(0, -1).every((chunk) => chunk.length > 0 && chunk.length % 512 === 0)).toBe(true);
    expect(out[out.length - 1].length).toBe(300_000 % 512);
  });

  it('copies no more than the bytes that straddle two chunks', async () => {
    const bytes = randomBytes(64 * 1024);
    const out = await collect(inWholeBlocks(cutAt(bytes, [1000])));

    // Every chunk that is not a 512-byte joint is a view of the input, not a copy of it.
    const copies = out.filter((chunk) => chunk.buffer !== bytes.buffer);
    expect(copies.every((chunk) => chunk.length <= 512)).toBe(true);
    expect(out.some((chunk) => chunk.buffer === bytes.buffer && chunk.length >= 512)).toBe(true);
  });
});

describe('readArchive', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'arvo-rca-archive-reader-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('gives the parser a gzip archive in whole tar blocks, so the parser never copies a chunk onto what it kept', async () => {
    // Incompressible bodies of odd sizes: gunzip's output then comes in pieces that end anywhere.
    const entries: FixtureEntry[] = Array.from({ length: 40 }, (_, i) => ({ type: 'File', path: `src/f${i}`, content: randomBytes(1000 + i * 777) }));
    const archive = join(dir, 'a.tar.gz');
    await writeFile(archive, tarGz(entries));
    const parser = new NotingParser({ strict: true });
    const seen = new Map<string, string>();
    parser.on('entry', (entry: ReadEntry) => {
      const hash = createHash('sha256');
      entry.on('data', (chunk: Buffer) => hash.update(chunk));
      entry.on('end', () => seen.set(entry.path, hash.digest('hex')));
    });

    await readArchive(archive, parser, new AbortController().signal);

    expect(parser.writes.length).toBeGreaterThan(2);
    expect(parser.writes.every((size) => size % 512 === 0)).toBe(true);
    expect(seen).toEqual(
      new Map(
        entries.map((entry) => [
          entry.path,
          createHash('sha256')
            .update((entry as { content: Buffer }).content)
            .digest('hex'),
        ]),
      ),
    );
  });
});
