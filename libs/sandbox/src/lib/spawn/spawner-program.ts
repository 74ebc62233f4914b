/** What the owner asks of its spawner. */
export type SpawnerRequest = { type: 'spawn'; id: number; command: string; args: string[]; env: Record<string, string> } | { type: 'kill'; id: number };

/** What the spawner answers: `started` comes with the child's stdin as its handle, then `ended` once it is gone. */
export type SpawnerReply =
  { type: 'started'; id: number } | { type: 'ended'; id: number; code: number | null; signal: NodeJS.Signals | null; stderr: string; error?: string };

/** How much of a child's stderr its end reports: the last bytes, where a failing tool says why. */
export const STDERR_KEPT_CHARS = 4096;

/**
 * The spawner's own program, run by `node -e` so that it needs no file beside the bundle. It holds next to
 * nothing, so that Node's fork of it to start a child is cheap, and it hands the child's stdin (a socket)
 * back over the IPC channel, so that the bytes never pass through it. When its owner goes (ended or
 * killed), the channel closes and it kills whatever it started before it exits itself.
 */
export const SPAWNER_PROGRAM = `'use strict';
const { spawn } = require('node:child_process');
const children = new Map();
process.on('message', (request) => {
  if (request.type === 'kill') children.get(request.id)?.kill('SIGKILL');
  else run(request);
});
process.on('disconnect', () => {
  for (const child of children.values()) child.kill('SIGKILL');
  process.exit(0);
});
function run({ id, command, args, env }) {
  let stderr = '';
  let done = false;
  const end = (outcome) => {
    if (done) return;
    done = true;
    children.delete(id);
    if (process.connected) process.send({ type: 'ended', id, stderr, ...outcome });
  };
  let child;
  try {
    child = spawn(command, args, { env, stdio: ['pipe', 'ignore', 'pipe'] });
  } catch (error) {
    end({ code: null, signal: null, error: error.message });
    return;
  }
  children.set(id, child);
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text) => {
    stderr = (stderr + text).slice(-${STDERR_KEPT_CHARS});
  });
  const stderrClosed = new Promise((resolve) => child.stderr.once('close', resolve));
  child.once('spawn', () => {
    if (process.connected) process.send({ type: 'started', id }, child.stdin);
  });
  child.once('error', (error) => end({ code: null, signal: null, error: error.message }));
  child.once('exit', (code, signal) => void stderrClosed.then(() => end({ code, signal })));
}
`;
