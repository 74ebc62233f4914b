import { spawnSync } from 'node:child_process';
import { ProcessTable } from '@arvo-rca/common';
import { ownerHost } from './host-identity';
import { currentOwner, formatOwnerId, ownerIsAlive, parseOwnerId } from './owner-id';

describe('owner ids', () => {
  const processes = new ProcessTable();

  it('encode host, pid, process start and a nonce, and parse back', () => {
    const owner = currentOwner(processes);

    expect(owner).toMatchObject({ host: ownerHost(), pid: process.pid });
    expect(formatOwnerId(owner)).toMatch(/^.+:\d+:\d+:[0-9a-f]{8}$/);
    expect(parseOwnerId(formatOwnerId(owner))).toEqual(owner);
    expect(parseOwnerId('host.example.org:12:1700000000:ab')).toEqual({ host: 'host.example.org', pid: 12, startedAtS: 1700000000, nonce: 'ab' });
  });

  it('ignore labels of another shape', () => {
    expect(parseOwnerId('test-0d6f0c4e-1b0e-4d1c-9a47-3f2f3b7c9a10')).toBeUndefined();
    expect(parseOwnerId('host:12:x:ab')).toBeUndefined();
  });

  it('tell a live owner from a dead one and from a later process that reuses its pid', () => {
    const me = currentOwner(processes);
    const exited = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const dead = { ...me, pid: Number(exited.stdout) };
    const reused = { ...me, startedAtS: me.startedAtS - 3600 };

    expect(ownerIsAlive(me, processes)).toBe(true);
    expect(ownerIsAlive(dead, processes)).toBe(false);
    expect(ownerIsAlive(reused, processes)).toBe(false);
  });

  it('two module instances in one process get distinct ids', () => {
    expect(formatOwnerId(currentOwner(processes))).not.toBe(formatOwnerId(currentOwner(processes)));
  });
});
