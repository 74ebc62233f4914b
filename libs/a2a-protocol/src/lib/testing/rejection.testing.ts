import type { PeerEvent } from '../client/peer-events';

/**
 * The reason of a refused request, as its events must tell it: the request's task, then one final
 * status `rejected` whose text names the problems. Throws, with the events, on any other answer (a bare
 * message, a task that went to work).
 */
export function rejectionOf(events: readonly PeerEvent[]): string {
  const [task, status, ...rest] = events;
  const opened = task?.kind === 'task' && task.state === 'submitted';
  if (!opened || status?.kind !== 'status' || status.state !== 'rejected' || rest.length > 0)
    throw new Error(`expected a task that ends rejected at once, got ${JSON.stringify(events)}`);
  return status.text;
}
