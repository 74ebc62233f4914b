import { availableParallelism } from 'node:os';
import { defaultContainerCpus, parseMemory, resolveSandboxOptions } from './sandbox-options';

describe('sandbox options', () => {
  it('default to 120 s commands, 100 KiB output, 4 GiB, 1024 pids, the least CPU weight, 20 GiB of disk, .git removed under /src', () => {
    expect(resolveSandboxOptions({})).toMatchObject({
      sandbox: 'auto',
      commandTimeoutS: 120,
      maxOutputBytes: 102_400,
      memoryBytes: 4 * 1024 ** 3,
      pids: 1024,
      cpus: defaultContainerCpus(),
      cpuShares: 2,
      diskBytes: 20 * 1024 ** 3,
      removeGitUnder: ['/src'],
    });
  });

  it('give a task half the CPUs by default, at least one and at most two, leaving room for other tasks on small machines', () => {
    expect([1, 2, 3, 4, 16].map((cpus) => defaultContainerCpus(cpus))).toEqual([1, 1, 1, 2, 2]);
  });

  it('start and remove one container per CPU at a time unless told otherwise, and refuse a pace of 0', () => {
    expect(resolveSandboxOptions({}).startConcurrency).toBe(availableParallelism());
    expect(() => resolveSandboxOptions({ startConcurrency: 0 })).toThrow('invalid sandbox options: startConcurrency=0 (each must be a positive number)');
  });

  it("bound the running tasks' disk by the free disk unless a total is given, 0 for none, and refuse a negative one", () => {
    expect(resolveSandboxOptions({}).diskTotalBytes).toBeUndefined();
    expect(resolveSandboxOptions({ diskTotalBytes: 0 }).diskTotalBytes).toBe(0);
    expect(() => resolveSandboxOptions({ diskTotalBytes: -1 })).toThrow(
      'invalid sandbox options: diskTotalBytes=-1 (it must be 0, for no bound, or a byte count)',
    );
  });

  it('parse container memory as CONTAINER_MEMORY is written', () => {
    expect([parseMemory('4g'), parseMemory('512M'), parseMemory('1024k'), parseMemory('1000')]).toEqual([4 * 1024 ** 3, 512 * 1024 ** 2, 1024 ** 2, 1000]);
    expect(() => parseMemory('lots')).toThrow('memory must be a size such as 4g or 512m, got "lots"');
  });
});
