import { randomBytes } from 'node:crypto';
import { ownerHost } from './host-identity';
import type { ProcessTable } from './process-table';

/**
 * Who owns a container: the host and process that made it. The owner id is
 * `<host>:<pid>:<process start, epoch s>:<nonce>`; host (hostname and process table, see host-identity.ts)
 * and pid say where to look, the start time
 * tells a live owner from a later process that reuses its pid, and the nonce separates two sandbox
 * modules in one process (each removes only its own containers at shutdown).
 */
export interface OwnerIdentity {
  host: string;
  pid: number;
  startedAtS: number;
  nonce: string;
}

// Start times of one process read twice may differ by rounding.
const START_TOLERANCE_S = 2;

export function formatOwnerId(owner: OwnerIdentity): string {
  return `${owner.host}:${owner.pid}:${owner.startedAtS}:${owner.nonce}`;
}

/** The owner encoded in a label; undefined for ids of another shape (never ours to judge). */
export function parseOwnerId(id: string): OwnerIdentity | undefined {
  const match = /^(.+):(\d+):(\d+):([0-9a-f]+)$/.exec(id);
  if (!match) return undefined;
  return { host: match[1], pid: Number(match[2]), startedAtS: Number(match[3]), nonce: match[4] };
}

export function currentOwner(processes: ProcessTable): OwnerIdentity {
  const startedAtS = processes.startTimeS(process.pid) ?? Math.floor(Date.now() / 1000 - process.uptime());
  return { host: ownerHost(), pid: process.pid, startedAtS, nonce: randomBytes(4).toString('hex') };
}

/** Whether the owner's process still runs; only meaningful for owners on this host. */
export function ownerIsAlive(owner: OwnerIdentity, processes: ProcessTable): boolean {
  if (!processes.isAlive(owner.pid)) return false;
  const startedAtS = processes.startTimeS(owner.pid);
  return startedAtS === undefined || Math.abs(startedAtS - owner.startedAtS) <= START_TOLERANCE_S;
}
