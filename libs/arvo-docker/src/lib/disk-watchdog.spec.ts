import { DISK_CHECK_FLOOR_MS, nextDiskCheckMs } from './disk-watchdog';

const GIB = 1024 ** 3;

describe('nextDiskCheckMs: when the disk watchdog looks again', () => {
  it('waits the longest interval while nothing is written, and a quarter of it at half the limit', () => {
    expect(nextDiskCheckMs(2 * GIB, 0, 0, 2_000)).toBe(2_000);
    expect(nextDiskCheckMs(2 * GIB, GIB, 0, 2_000)).toBe(500);
  });

  it('looks before the last rate of writing can reach the limit, at half the time it needs', () => {
    // 1.5 GiB left at 1 MiB per ms: 1536 ms to the limit, a look after 768 (not the 1125 of what is left alone).
    expect(nextDiskCheckMs(2 * GIB, GIB / 2, 1024 ** 2, 2_000)).toBe(768);
  });

  it('never looks more often than the floor, nor than keeps the engine walking the layer more than 5% of the time', () => {
    expect(nextDiskCheckMs(2 * GIB, 2 * GIB - 1, 1024 ** 2, 2_000)).toBe(DISK_CHECK_FLOOR_MS);
    // A look that took 40 ms (a large tree's layer): not again before 800 ms.
    expect(nextDiskCheckMs(2 * GIB, 2 * GIB - 1, 1024 ** 2, 2_000, 40)).toBe(800);
    expect(nextDiskCheckMs(2 * GIB, 0, 0, 2_000, 400)).toBe(2_000);
  });
});
