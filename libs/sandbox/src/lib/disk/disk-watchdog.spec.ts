import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DISK_CHECK_FLOOR_MS, DiskWatchdog, LOOK_BEAT_MS, nextDiskCheckMs, onLookBeat, type DiskUse } from './disk-watchdog';
import { countFolder } from './file-count';
import { INODE_READING_SHARED_MS, InodeFloor } from './inode-floor';

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

describe('onLookBeat: the looks of many tasks come together', () => {
  it('ends a wait of four beats or more on the shared beat, less than a beat later', () => {
    for (const now of [0, 1, 249, 250, 1_234_567]) {
      const wait = onLookBeat(2_000, now);
      expect((now + wait) % LOOK_BEAT_MS).toBe(0);
      expect(wait).toBeGreaterThanOrEqual(2_000);
      expect(wait).toBeLessThan(2_000 + LOOK_BEAT_MS);
    }
    // Two tasks whose waits began apart look at the same moment.
    expect(1_010 + onLookBeat(2_000, 1_010)).toBe(1_130 + onLookBeat(2_000, 1_130));
  });

  it('leaves a short wait, a task near its limit, as it is', () => {
    expect(onLookBeat(DISK_CHECK_FLOOR_MS, 1_001)).toBe(DISK_CHECK_FLOOR_MS);
    expect(onLookBeat(4 * LOOK_BEAT_MS - 1, 7)).toBe(4 * LOOK_BEAT_MS - 1);
  });
});

describe('DiskWatchdog: bytes, files and the host floor of one look', () => {
  const bounds = { bytes: 1024 ** 2, files: 5_000, intervalMs: 2_000, subject: "the task's container" };

  async function lookAt(use: DiskUse, floor?: InodeFloor): Promise<string[]> {
    const told: string[] = [];
    await new DiskWatchdog(
      async () => use,
      { ...bounds, floor },
      (detail) => told.push(detail),
    ).check();
    return told;
  }

  it('ends the task past its bound of files, naming them and the setting, though its bytes are nothing', async () => {
    expect(await lookAt({ bytes: 0, files: 1_000_123 })).toEqual(["the task's container made 1,000,123 files, past its limit of 5,000 (CONTAINER_FILES)"]);
    expect(await lookAt({ bytes: 0, files: 5_000 })).toEqual([]);
  });

  it('still ends it past its bytes, where its files cannot be counted', async () => {
    expect(await lookAt({ bytes: 2 * 1024 ** 2 })).toEqual(["the task's container wrote 2.0 MiB, past its disk limit of 1.0 MiB"]);
  });

  it("ends it once the host's free inodes fall below the floor, as statfs tells them", async () => {
    const low = new InodeFloor(
      { percent: 5 },
      async () => '/var/lib/docker',
      async () => ({ free: 40_000, total: 1_000_000 }),
    );
    const enough = new InodeFloor(
      { percent: 5 },
      async () => '/var/lib/docker',
      async () => ({ free: 50_000, total: 1_000_000 }),
    );
    const none = new InodeFloor(
      { inodes: 0 },
      async () => '/var/lib/docker',
      async () => ({ free: 0, total: 1_000_000 }),
    );
    expect(await lookAt({ bytes: 0, files: 10 }, low)).toEqual([
      "the host's free inodes on /var/lib/docker are 40,000 of 1,000,000, below the floor of 50,000 (HOST_INODES_FLOOR)",
    ]);
    expect(await lookAt({ bytes: 0, files: 10 }, enough)).toEqual([]);
    expect(await lookAt({ bytes: 0, files: 10 }, none)).toEqual([]);
  });

  it("shares one reading of the host's inodes among the looks of all the tasks that come within a moment of it", async () => {
    let readings = 0;
    let free = 50_000;
    const floor = new InodeFloor(
      { percent: 5 },
      async () => '/var/lib/docker',
      async () => {
        readings += 1;
        return { free, total: 1_000_000 };
      },
    );
    // 128 tasks' watchdogs looking together: one statfs.
    const told = await Promise.all(Array.from({ length: 128 }, () => lookAt({ bytes: 0, files: 10 }, floor)));
    expect(told.flat()).toEqual([]);
    expect(readings).toBe(1);

    // A moment later, a fresh reading: the inodes went meanwhile, and the next look sees it.
    free = 40_000;
    await new Promise((resolve) => setTimeout(resolve, INODE_READING_SHARED_MS + 50));
    expect(await lookAt({ bytes: 0, files: 10 }, floor)).toEqual([expect.stringContaining('free inodes on /var/lib/docker are 40,000')]);
    expect(readings).toBe(2);
  });

  it('looks as often for files near their bound as for bytes near theirs', () => {
    // 4,000 of 5,000 files at 20 files per ms: the 1,000 left take 50 ms, so the floor's 200 ms.
    expect(nextDiskCheckMs(5_000, 4_000, 20, 2_000)).toBe(DISK_CHECK_FLOOR_MS);
  });
});

describe('countFolder', () => {
  it('counts every entry from the host, and fails rather than undercount a folder it cannot read', async () => {
    const root = await mkdtemp(join(tmpdir(), 'arvo-count-'));
    try {
      await mkdir(join(root, 'a', 'b'), { recursive: true });
      await writeFile(join(root, 'a', 'b', 'file'), Buffer.alloc(8192, 1));
      expect(await countFolder(root)).toEqual({ files: 4 });
      expect(await countFolder(root, { bytes: true })).toMatchObject({ files: 4, bytes: expect.any(Number) });
      await expect(countFolder(join(root, 'missing'))).rejects.toThrow(/find .* failed/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
