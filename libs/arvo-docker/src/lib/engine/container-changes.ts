import type Docker from 'dockerode';
import type DockerModem from 'docker-modem';
import type { Readable } from 'node:stream';

const ENTRY = '"Path":';

/**
 * How many paths the engine lists as changed in the container (its `/changes`: what it finds in the
 * writable layer, never what runs inside): about one per file the container made. Counted as the JSON
 * streams in, not parsed: a million changes are some 50 MB of it. `"Path":` cannot occur inside a path,
 * whose quotes the engine escapes.
 */
export async function countChanges(container: Docker.Container, signal?: AbortSignal): Promise<number> {
  const stream = await new Promise<Readable>((resolve, reject) => {
    const options = {
      path: `/containers/${container.id}/changes`,
      method: 'GET',
      isStream: true,
      abortSignal: signal,
      statusCodes: { 200: true, 404: 'no such container', 500: 'server error' },
    };
    const modem = container.modem as DockerModem;
    modem.dial(options, (error: Error | null, data: unknown) => (error ? reject(error) : resolve(data as Readable)));
  });
  let count = 0;
  let tail = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream as AsyncIterable<string>) {
    const text = tail + chunk;
    for (let at = text.indexOf(ENTRY); at !== -1; at = text.indexOf(ENTRY, at + ENTRY.length)) count += 1;
    // What could be the start of an entry split between two chunks, and never a whole one.
    tail = text.slice(-(ENTRY.length - 1));
  }
  return count;
}
