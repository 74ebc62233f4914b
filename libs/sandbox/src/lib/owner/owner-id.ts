import { randomBytes } from 'node:crypto';
import type { ProcessTable } from '@arvo-rca/common';
import { ownerHost } from './host-identity';

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
  return processes.isRunningSince(owner.pid, owner.startedAtS);
}
