import { machineDiskReason } from './bench-disk';

describe('the disk of the tree figures', () => {
  it('tries a fresh filesystem when run as root with BENCH_DISK unset', () => {
    expect(machineDiskReason({}, 0)).toBeUndefined();
  });

  it('stays on the machine disk when BENCH_DISK=machine, root or not', () => {
    expect(machineDiskReason({ BENCH_DISK: 'machine' }, 0)).toBe('BENCH_DISK=machine');
  });

  it('stays on the machine disk without root, and says why', () => {
    expect(machineDiskReason({}, 1000)).toBe('a loop mount needs root');
  });

  it('refuses a BENCH_DISK it does not know', () => {
    expect(() => machineDiskReason({ BENCH_DISK: 'loop' }, 0)).toThrow('BENCH_DISK is "machine" or unset, not "loop"');
  });
});
