import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJsonAtomic } from './atomic-file';
import { CodedError } from '../coded-error';
import { isRecord } from '../is-record';

type UsageLedgerErrorCode = 'LEDGER_UNREADABLE';
export class UsageLedgerError extends CodedError<UsageLedgerErrorCode> {}

/** An entry of a usage ledger: something made here, and when it was last used (ms since the epoch). */
interface UsedEntry {
  lastUsed: number;
}

/** How a ledger's file holds its entries: `<folder>/<name>`, as `{"<list>": [entry, ...]}`. */
export interface LedgerFormat<Entry extends UsedEntry> {
  name: string;
  list: string;
  key(entry: Entry): string;
  /** Whether an entry read back is well-formed: one that is not is dropped, never acted on. */
  isEntry(value: unknown): value is Entry;
}

/**
 * What a budget made itself (pulled, downloaded), least recently used first, kept in a JSON file so that a
 * restart knows it: the only things the budget may remove. Read once; each entry is checked by the format's
 * guard, and one that fails is dropped, whatever the file says. The order is kept in the file too, so two
 * uses in the same millisecond keep theirs across a restart. Written whole and renamed into place: a crash
 * leaves the old file or the new one.
 */
export class UsageLedger<Entry extends UsedEntry> {
  private loading?: Promise<Map<string, Entry>>;
  // One write at a time, each of the entries as they are at its turn: the last one written is the newest.
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly folder: string,
    private readonly format: LedgerFormat<Entry>,
  ) {}

  get path(): string {
    return join(this.folder, this.format.name);
  }

  /** The entries, least recently used first. */
  async list(): Promise<Entry[]> {
    return [...(await this.load()).values()];
  }

  async get(key: string): Promise<Entry | undefined> {
    return (await this.load()).get(key);
  }

  async has(key: string): Promise<boolean> {
    return (await this.load()).has(key);
  }

  /** Records `entry` (in place of any under its key) as the most recently used. */
  async put(entry: Entry): Promise<void> {
    const entries = await this.load();
    const key = this.format.key(entry);
    entries.delete(key);
    entries.set(key, entry);
    await this.save();
  }

  /** Marks the entry under `key` as used at `now`; a key it does not hold stays unrecorded. */
  async touch(key: string, now = Date.now()): Promise<void> {
    const entry = await this.get(key);
    if (entry) await this.put({ ...entry, lastUsed: now });
  }

  async forget(key: string): Promise<void> {
    if ((await this.load()).delete(key)) await this.save();
  }

  /** Writes the entries as they are now, for a change made to one in place. */
  protected save(): Promise<void> {
    const write = this.writing.then(async () => {
      await mkdir(this.folder, { recursive: true, mode: 0o700 });
      await writeJsonAtomic(this.path, { [this.format.list]: [...(await this.load()).values()] });
    });
    this.writing = write.catch(() => undefined);
    return write;
  }

  private load(): Promise<Map<string, Entry>> {
    this.loading ??= this.read().catch((error: unknown) => {
      // Read again next time: a file fixed meanwhile is taken without a restart.
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  private async read(): Promise<Map<string, Entry>> {
    const { list } = this.format;
    const unreadable = (reason: string, cause?: unknown): UsageLedgerError =>
      new UsageLedgerError(
        'LEDGER_UNREADABLE',
        `cannot read ${this.path} (${reason}): fix it, or remove it to start an empty one (what it recorded is then never removed)`,
        { cause },
      );
    const text = await readFile(this.path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw unreadable(error.code ?? error.message, error);
    });
    if (text === undefined) return new Map();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw unreadable(`not JSON: ${(error as Error).message}`, error);
    }
    const entries = isRecord(parsed) ? parsed[list] : undefined;
    if (!Array.isArray(entries)) throw unreadable(`not of the form {"${list}": [...]}`);
    const valid = entries.filter((entry): entry is Entry => this.format.isEntry(entry) && Number.isFinite(entry.lastUsed));
    // A file an older version wrote may be in the order of first use: the order of last use it is, ties in the file's order.
    valid.sort((a, b) => a.lastUsed - b.lastUsed);
    return new Map(valid.map((entry) => [this.format.key(entry), entry]));
  }
}
