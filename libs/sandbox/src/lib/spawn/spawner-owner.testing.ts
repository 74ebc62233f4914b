// A process of its own that owns a ChildSpawner, for the specs about what happens when an owner goes.
// Run with tsx by child-spawner.spec.ts:
//   hold <pidFile>   starts `sleep 600` through the spawner (which no end of its stdin stops), which writes its pid to pidFile, and waits forever
//   once             runs `true` through the spawner, prints its exit code, and returns: the process must then end
import { writeFileSync } from 'node:fs';
import { ChildSpawner } from './child-spawner';

const env = { PATH: process.env['PATH'] ?? '' };

async function main([mode, pidFile]: string[]): Promise<void> {
  const spawner = ChildSpawner.shared();
  if (mode === 'hold') {
    await spawner.spawn('sh', ['-c', `echo $$ > '${pidFile}'; exec sleep 600`], env);
    writeFileSync(`${pidFile}.spawner`, String(spawner.pid));
    setInterval(() => undefined, 60_000);
  } else {
    const child = await spawner.spawn('true', [], env);
    process.stdout.write(`exit ${(await child.ended).code}\n`);
  }
}

void main(process.argv.slice(2));
