// Another green process, as far as a record's lock goes: takes the lock of the record in argv[2] as host
// argv[3], says `held` (or the refusal), and holds it until its stdin closes, then releases it.
import { ProcessTable } from '@arvo-rca/common';
import { RecordError } from './record-error';
import { RecordLock } from './record-lock';

async function main(): Promise<void> {
  const [folder, host] = process.argv.slice(2);
  try {
    const lock = await RecordLock.take(folder, 'resume', { host, processes: new ProcessTable() });
    console.log('held');
    process.stdin.resume();
    await new Promise((done) => process.stdin.once('end', done));
    await lock.release();
    console.log('released');
  } catch (error) {
    if (!(error instanceof RecordError)) throw error;
    console.log(`refused ${error.code}: ${error.message}`);
  }
}

void main();
