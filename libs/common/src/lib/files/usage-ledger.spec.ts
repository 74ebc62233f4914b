import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { scratchFolder } from '../testing/scratch-folder.testing';
import { UsageLedger, UsageLedgerError } from './usage-ledger';
import { type Note, noteText, NOTES } from './usage-ledger-writer.testing';

const WRITER = join(__dirname, 'usage-ledger-writer.testing.ts');
const CRASHES = 8;

const note = (key: string, lastUsed: number): Note => ({ key, text: `${key} text`, lastUsed });

describe('a usage ledger: what a budget made itself, least recently used first', () => {
  const dir = scratchFolder('usage-ledger-');
  let path: string;

  beforeEach(() => {
    path = join(dir(), 'notes.json');
  });

  const keys = async (ledger: UsageLedger<Note>): Promise<string[]> => (await ledger.list()).map((entry) => entry.key);
  const keysInFile = async (): Promise<string[]> => (JSON.parse(await readFile(path, 'utf8')) as { notes: Note[] }).notes.map((entry) => entry.key);

  it('starts empty where there is no file, and creates it and its folder at the first record, as {"<list>": [...]}', async () => {
    const ledger = new UsageLedger(join(dir(), 'cache'), NOTES);
    expect(await ledger.list()).toEqual([]);
    await expect(readdir(dir())).resolves.toEqual([]);

    await ledger.put(note('a', 1));

    expect(JSON.parse(await readFile(join(dir(), 'cache', 'notes.json'), 'utf8'))).toEqual({ notes: [note('a', 1)] });
  });

  it('lists least recently used first, in the file too, and keeps that order across a restart', async () => {
    const before = new UsageLedger(dir(), NOTES);
    await before.put(note('a', 1));
    await before.put(note('b', 2));
    await before.put(note('c', 3));
    await before.touch('a', 4);
    await before.touch('unrecorded', 5);

    expect(await keys(before)).toEqual(['b', 'c', 'a']);
    expect(await keysInFile()).toEqual(['b', 'c', 'a']);
    const after = new UsageLedger(dir(), NOTES);
    expect(await after.list()).toEqual([note('b', 2), note('c', 3), note('a', 4)]);
    expect(await after.has('unrecorded')).toBe(false);
  });

  it('keeps the order of uses in the same millisecond across a restart', async () => {
    const before = new UsageLedger(dir(), NOTES);
    await before.put(note('a', 7));
    await before.put(note('b', 7));
    await before.touch('a', 7);

    expect(await keys(before)).toEqual(['b', 'a']);
    expect(await keys(new UsageLedger(dir(), NOTES))).toEqual(['b', 'a']);
  });

  it('reads a file in the order of first use, as an older version wrote it, in the order of last use', async () => {
    await writeFile(path, JSON.stringify({ notes: [note('a', 9), note('b', 3), note('c', 9), note('d', 5)] }));
    expect(await keys(new UsageLedger(dir(), NOTES))).toEqual(['b', 'd', 'a', 'c']);
  });

  it('forgets an entry, in the file too', async () => {
    const ledger = new UsageLedger(dir(), NOTES);
    await ledger.put(note('a', 1));
    await ledger.put(note('b', 2));

    await ledger.forget('a');
    await ledger.forget('never recorded');

    expect(await keysInFile()).toEqual(['b']);
    expect(await ledger.get('a')).toBeUndefined();
  });

  it('drops the entries its guard refuses, and those without a finite lastUsed: never listed, never written back', async () => {
    const malformed = [
      { key: 'no text', lastUsed: 1 },
      { key: 'text not a string', text: 5, lastUsed: 2 },
      'a string',
      null,
      ['n'],
      { text: 'no key', lastUsed: 3 },
    ];
    // 1e999 is valid JSON, read as Infinity: a number, but no time.
    await writeFile(
      path,
      `{"notes": [${JSON.stringify(note('a', 1))}, ${malformed.map((entry) => JSON.stringify(entry)).join(', ')}, {"key": "infinite", "text": "x", "lastUsed": 1e999}]}`,
    );
    const ledger = new UsageLedger(dir(), NOTES);

    expect(await ledger.list()).toEqual([note('a', 1)]);
    await ledger.touch('infinite', 2);
    await ledger.touch('no text', 3);
    expect(await ledger.has('infinite')).toBe(false);
    await ledger.put(note('b', 4));
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ notes: [note('a', 1), note('b', 4)] });
  });

  it('names the file when it is not JSON, leaves it as it is, and reads it once it is fixed, without a restart', async () => {
    await writeFile(path, '{"notes": [');
    const ledger = new UsageLedger(dir(), NOTES);

    const refused = await ledger.touch('a').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UsageLedgerError);
    expect(refused).toMatchObject({ code: 'LEDGER_UNREADABLE', message: expect.stringContaining(`cannot read ${path} (not JSON: `) });
    await expect(ledger.put(note('a', 1))).rejects.toThrow(/fix it, or remove it to start an empty one/);
    expect(await readFile(path, 'utf8')).toBe('{"notes": [');

    await writeFile(path, JSON.stringify({ notes: [note('a', 1)] }));
    expect(await keys(ledger)).toEqual(['a']);
  });

  it('names the file when its JSON does not list the entries where the format says', async () => {
    for (const text of ['[]', 'null', '{"notes": {"a": 1}}', '{"images": []}']) {
      await writeFile(path, text);
      await expect(new UsageLedger(dir(), NOTES).list()).rejects.toMatchObject({
        code: 'LEDGER_UNREADABLE',
        message: `cannot read ${path} (not of the form {"notes": [...]}): fix it, or remove it to start an empty one (what it recorded is then never removed)`,
      });
    }
  });

  it('writes changes made at once in the order they were made', async () => {
    const ledger = new UsageLedger(dir(), NOTES);
    await Promise.all([ledger.put(note('a', 1)), ledger.put(note('b', 2)), ledger.forget('a'), ledger.put(note('c', 3)), ledger.touch('b', 4)]);

    expect(await keysInFile()).toEqual(['c', 'b']);
    expect(await keys(new UsageLedger(dir(), NOTES))).toEqual(['c', 'b']);
  });

  it('leaves the old file or the new one, never part of either, when the process dies while it writes', async () => {
    const found: number[] = [];
    for (let crash = 0; crash < CRASHES; crash++) {
      const writer = spawn(process.execPath, ['--import', 'tsx', WRITER, dir()], { stdio: ['ignore', 'pipe', 'inherit'] });
      await once(writer.stdout, 'data');
      // Killed at a moment of its writing that differs each time.
      await sleep(20 + 15 * crash);
      writer.kill('SIGKILL');
      await once(writer, 'exit');

      const notes = await new UsageLedger(dir(), NOTES).list();
      found.push(notes.length);
      expect(notes.length).toBeGreaterThan(0);
      expect(notes.map((entry) => entry.key)).toEqual(notes.map((_, index) => `n${index}`));
      expect(notes.every((entry, index) => entry.text === noteText(index))).toBe(true);
      await rm(path);
    }
    console.log(`notes found after each of ${CRASHES} kills: ${found.join(', ')}`);
  });
});
