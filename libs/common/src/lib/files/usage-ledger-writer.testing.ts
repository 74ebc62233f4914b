// A ledger of notes, for the specs of UsageLedger. Run as a process of its own (`node --import tsx
// usage-ledger-writer.testing.ts <folder>`), it records one note after another, each save larger than the
// last, until it is killed: the spec kills it while it writes.
import { isRecord } from '../is-record';
import { UsageLedger, type LedgerFormat } from './usage-ledger';

export interface Note {
  key: string;
  text: string;
  lastUsed: number;
}

export const NOTES: LedgerFormat<Note> = {
  name: 'notes.json',
  list: 'notes',
  key: (note) => note.key,
  isEntry: (value): value is Note => isRecord(value) && typeof value.key === 'string' && typeof value.text === 'string' && typeof value.lastUsed === 'number',
};

/** The text of the note `index` writes: long enough that a save of many takes a while. */
export function noteText(index: number): string {
  return `${index}:`.padEnd(4096, 'x');
}

async function writeUntilKilled(folder: string): Promise<void> {
  const ledger = new UsageLedger(folder, NOTES);
  for (let index = 0; ; index++) {
    await ledger.put({ key: `n${index}`, text: noteText(index), lastUsed: index });
    if (index === 0) process.stdout.write('writing\n');
  }
}

if (require.main === module) void writeUntilKilled(process.argv[2]);
