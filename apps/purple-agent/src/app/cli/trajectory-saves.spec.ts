import { TrajectorySaves } from './trajectory-saves';

describe('a CLI run’s trajectory saves', () => {
  it('writes one at a time, in order, and a step only once its answer has left', async () => {
    const log: string[] = [];
    let writes = 0;
    const saves = new TrajectorySaves(async () => {
      const write = (writes += 1);
      log.push(`start ${write}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      log.push(`end ${write}`);
    });

    saves.stepped();
    saves.answered();
    saves.answered(); // nothing new to save
    const last = saves.save();
    await last;

    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('goes on after a failed write, and the caller of a save learns of its failure', async () => {
    let calls = 0;
    const saves = new TrajectorySaves(async () => {
      calls += 1;
      if (calls === 1) throw new Error('disk full');
    });

    await expect(saves.save()).rejects.toThrow('disk full');
    await expect(saves.save()).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});
