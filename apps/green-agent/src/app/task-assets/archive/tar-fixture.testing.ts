import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGzip, gzipSync } from 'node:zlib';
import { Header } from 'tar';

/** One raw entry of a hand-made archive: tar's own writer would refuse to write the hostile ones. */
export type FixtureEntry = (
  | { type: 'File'; path: string; content: string | Buffer }
  | { type: 'Directory'; path: string }
  | { type: 'SymbolicLink' | 'Link'; path: string; linkpath: string }
) & { mode?: number; uid?: number; gid?: number };

const BLOCK = 512;
const MTIME = new Date('2024-01-01T00:00:00Z');

/** The header, body and padding of one entry, encoded by node-tar's Header. */
function encode(entry: FixtureEntry): Buffer[] {
  const body = entry.type === 'File' ? Buffer.from(entry.content) : Buffer.alloc(0);
  const header = new Header({
    path: entry.path,
    type: entry.type,
    mode: entry.mode ?? (entry.type === 'Directory' ? 0o755 : 0o644),
    uid: entry.uid,
    gid: entry.gid,
    size: body.length,
    mtime: MTIME,
    linkpath: 'linkpath' in entry ? entry.linkpath : undefined,
  });
  const block = Buffer.alloc(BLOCK);
  header.encode(block, 0);
  return [block, body, Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK)];
}

/** A gzipped tar archive holding exactly these entries, paths written as given. */
export function tarGz(entries: readonly FixtureEntry[]): Buffer {
  return gzipSync(Buffer.concat([...entries.flatMap(encode), Buffer.alloc(BLOCK * 2)]));
}

/** The same, streamed to `file`: for archives of very many entries. */
export async function writeTarGz(file: string, entries: Iterable<FixtureEntry>): Promise<void> {
  const gzip = createGzip();
  const output = createWriteStream(file);
  gzip.pipe(output);
  let batch: Buffer[] = [];
  for (const entry of entries) {
    batch.push(...encode(entry));
    if (batch.length < 1024) continue;
    if (!gzip.write(Buffer.concat(batch))) await once(gzip, 'drain');
    batch = [];
  }
  gzip.end(Buffer.concat([...batch, Buffer.alloc(BLOCK * 2)]));
  await once(output, 'close');
}

/**
 * A gzip bomb: one file `path` of `size` zero bytes, as fast deflate packs them (about 230 to 1, so 10 GiB
 * take 47 MB). The zeros are one compressed 64 MiB run repeated as gzip members, which gunzip joins.
 */
export async function writeZipBomb(file: string, path: string, size: number): Promise<void> {
  const run = 64 * 1024 * 1024;
  const header = Buffer.alloc(BLOCK);
  new Header({ path, type: 'File', mode: 0o644, size, mtime: MTIME }).encode(header, 0);
  const zeros = gzipSync(Buffer.alloc(run), { level: 1 });
  const output = createWriteStream(file);
  output.write(gzipSync(header));
  for (let left = size; left > 0; left -= run) {
    const member = left >= run ? zeros : gzipSync(Buffer.alloc(left), { level: 1 });
    if (!output.write(member)) await once(output, 'drain');
  }
  output.end(gzipSync(Buffer.alloc(((BLOCK - (size % BLOCK)) % BLOCK) + BLOCK * 2)));
  await once(output, 'close');
}

/** `count` empty files under `<scope>/`, a thousand to a folder, with their folders. */
export function* manyFiles(scope: string, count: number): Generator<FixtureEntry> {
  yield { type: 'Directory', path: `${scope}/` };
  for (let i = 0; i < count; i++) {
    const folder = `${scope}/d${String(Math.floor(i / 1000)).padStart(3, '0')}`;
    if (i % 1000 === 0) yield { type: 'Directory', path: `${folder}/` };
    yield { type: 'File', path: `${folder}/f${String(i).padStart(6, '0')}.c`, content: '' };
  }
}
