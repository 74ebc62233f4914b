import { gzipSync } from 'node:zlib';
import { Header } from 'tar';

/** One raw entry of a hand-made archive: tar's own writer would refuse to write the hostile ones. */
export type FixtureEntry =
  | { type: 'File'; path: string; content: string | Buffer }
  | { type: 'Directory'; path: string }
  | { type: 'SymbolicLink' | 'Link'; path: string; linkpath: string };

const BLOCK = 512;

/** A gzipped tar archive holding exactly these entries, paths written as given. */
export function tarGz(entries: readonly FixtureEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const body = entry.type === 'File' ? Buffer.from(entry.content) : Buffer.alloc(0);
    const header = new Header({
      path: entry.path,
      type: entry.type,
      mode: entry.type === 'Directory' ? 0o755 : 0o644,
      size: body.length,
      mtime: new Date('2024-01-01T00:00:00Z'),
      linkpath: 'linkpath' in entry ? entry.linkpath : undefined,
    });
    const block = Buffer.alloc(BLOCK);
    header.encode(block, 0);
    blocks.push(block, body, Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK));
  }
  blocks.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(blocks));
}
