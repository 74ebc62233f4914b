import { createHash } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * The host part of an owner id: the hostname, and a key for the process table owner pids are looked up
 * in (this boot of this kernel, and this pid namespace). Several assessors may drive one remote engine;
 * two of them on machines, or in containers, that share a hostname still get distinct hosts, so neither
 * judges the other's pids by its own process table (and reaps its live containers).
 */
export function ownerHost(): string {
  const table = `${readOr('/proc/sys/kernel/random/boot_id')} ${linkOr('/proc/self/ns/pid')}`;
  return `${hostname()}@${createHash('sha256').update(table).digest('hex').slice(0, 12)}`;
}

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
}

function linkOr(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
}
