import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scratchFolder } from '@arvo-rca/common/testing';
import { ImageLedger, type PulledImage } from './image-ledger';

describe('the record of the images the green agent pulled itself', () => {
  const cacheDir = scratchFolder('image-ledger-');
  let path: string;

  beforeEach(() => {
    path = join(cacheDir(), 'images-pulled.json');
  });

  it('reads and writes images-pulled.json as before: {"images": [{image, bytes, lastUsed}]}, least recently used first', async () => {
    // As an older version wrote it: in the order of the pulls, a later use changing lastUsed only.
    const written: PulledImage[] = [
      { image: 'n132/arvo:1-vul', bytes: 3_000_000_000, lastUsed: 1_700_000_900_000 },
      { image: 'n132/arvo:2-vul', bytes: 2_000_000_000, lastUsed: 1_700_000_100_000 },
    ];
    await writeFile(path, `${JSON.stringify({ images: written }, null, 2)}\n`);
    const ledger = new ImageLedger(cacheDir());

    await ledger.record('n132/arvo:3-vul', 4_000_000_000, 1_700_000_950_000);
    await ledger.touch('n132/arvo:2-vul', 1_700_000_990_000);

    const expected = [
      written[0],
      { image: 'n132/arvo:3-vul', bytes: 4_000_000_000, lastUsed: 1_700_000_950_000 },
      { ...written[1], lastUsed: 1_700_000_990_000 },
    ];
    expect(await readFile(path, 'utf8')).toBe(`${JSON.stringify({ images: expected }, null, 2)}\n`);
    expect(await new ImageLedger(cacheDir()).list()).toEqual(expected);
  });

  it('drops an entry without a name, a finite size of at least zero and a time of last use: the budget never sees it', async () => {
    const wellFormed: PulledImage = { image: 'n132/arvo:1-vul', bytes: 0, lastUsed: 5 };
    const malformed = [
      { image: 'debian:bookworm-slim', bytes: '3g', lastUsed: 1 },
      { image: 'debian:bookworm-slim', bytes: -1, lastUsed: 1 },
      { image: 'debian:bookworm-slim', lastUsed: 1 },
      { image: 'debian:bookworm-slim', bytes: 10 },
      { image: 'debian:bookworm-slim', bytes: 10, lastUsed: 'yesterday' },
      { image: ['debian:bookworm-slim'], bytes: 10, lastUsed: 1 },
      { image: '', bytes: 10, lastUsed: 1 },
      { bytes: 10, lastUsed: 1 },
      'debian:bookworm-slim',
      null,
    ];
    // 1e999 is valid JSON and reads as Infinity.
    const infinite = '{"image": "debian:bookworm-slim", "bytes": 1e999, "lastUsed": 1}';
    await writeFile(path, `{"images": [${[...malformed.map((entry) => JSON.stringify(entry)), infinite, JSON.stringify(wellFormed)].join(', ')}]}`);
    const ledger = new ImageLedger(cacheDir());

    expect(await ledger.list()).toEqual([wellFormed]);
    expect(await ledger.has('debian:bookworm-slim')).toBe(false);
    await ledger.touch('debian:bookworm-slim', 6);
    expect(await ledger.list()).toEqual([wellFormed]);
  });

  it('names the file when it cannot read it, and leaves it for a person to fix', async () => {
    await writeFile(path, '{"images": [{"image": "n132/arvo:1-vul", "bytes": 3');

    await expect(new ImageLedger(cacheDir()).record('n132/arvo:2-vul', 1)).rejects.toMatchObject({
      name: 'UsageLedgerError',
      code: 'LEDGER_UNREADABLE',
      message: expect.stringMatching(new RegExp(`^cannot read ${path} \\(not JSON: .*\\): fix it, or remove it to start an empty one`)),
    });
    expect(await readFile(path, 'utf8')).toBe('{"images": [{"image": "n132/arvo:1-vul", "bytes": 3');
  });
});
