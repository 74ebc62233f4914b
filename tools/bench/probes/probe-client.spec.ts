import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { PROBE_PRELOAD, ProbeClient } from './probe-client';

// A process with the probe preloaded that, when told, blocks its event loop or holds on to memory.
const SUBJECT = `
let kept;
process.on('message', (message) => {
  if (message === 'block') { const end = Date.now() + 150; while (Date.now() < end); process.send('done'); }
  if (message === 'grow') { kept = Buffer.alloc(96 * 1024 * 1024, 1); process.send('done'); }
  if (message === 'drop') { kept = undefined; gc(); process.send('done'); }
  if (message === 'heap') { kept = Array.from({ length: 1500000 }, (_, i) => ({ i, s: 'x' + i })); gc(); process.send('done'); }
  if (message === 'collect') { for (let i = 0; i < 3; i += 1) gc(); process.send('done'); }
});
setInterval(() => undefined, 1000);
`;

describe('the in-process probe', () => {
  let child: ChildProcess;
  let probe: ProbeClient;

  beforeEach(() => {
    child = spawn(process.execPath, ['--expose-gc', '-r', PROBE_PRELOAD, '-e', SUBJECT], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    probe = new ProbeClient(child);
  });

  afterEach(async () => {
    const exit = once(child, 'exit');
    child.kill();
    await exit;
  });

  // The histogram counts from its first tick on: a window opens, then things happen in it.
  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 50));

  async function tell(what: 'block' | 'grow' | 'drop' | 'collect' | 'heap'): Promise<void> {
    const done = once(child, 'message');
    child.send(what);
    await done;
  }

  it('sees the event loop of the process it is loaded into blocked', async () => {
    await probe.mark('loop');
    await settle();
    await tell('block');
    const report = await probe.report('loop');

    expect(report.loopDelayMs.max).toBeGreaterThanOrEqual(100);
    expect(report.loopDelayMs.samples).toBeGreaterThan(0);
  });

  it('sees the peak resident memory of the process grow with what it holds', async () => {
    await probe.mark('memory');
    await tell('grow');
    const { rssBytes } = await probe.report('memory');

    expect(rssBytes.peak - rssBytes.baseline).toBeGreaterThanOrEqual(80 * 1024 * 1024);
  });

  it('leaves the peak of a window open to one opened inside it with keepPeak, which a plain one resets', async () => {
    await probe.mark('outer');
    await tell('grow');
    await tell('drop');
    await probe.mark('inner', { keepPeak: true });
    await probe.report('inner');
    const kept = await probe.report('outer');
    expect(kept.rssBytes.peak - kept.rssBytes.baseline).toBeGreaterThanOrEqual(80 * 1024 * 1024);

    await probe.mark('outer');
    await tell('grow');
    await tell('drop');
    await probe.mark('inner');
    await probe.report('inner');
    const reset = await probe.report('outer');
    expect(reset.rssBytes.peak - reset.rssBytes.baseline).toBeLessThan(80 * 1024 * 1024);
  });

  it('keeps windows apart: one opened after a stall does not see it', async () => {
    await probe.mark('before');
    await settle();
    await tell('block');
    await probe.mark('after');
    await settle();
    const [before, after] = [await probe.report('before'), await probe.report('after')];

    expect(before.loopDelayMs.max).toBeGreaterThanOrEqual(100);
    expect(after.loopDelayMs.max).toBeLessThan(100);
  });

  it('counts the full garbage collections in its window, and only those', async () => {
    await probe.mark('collections');
    await tell('collect');
    const collected = await probe.report('collections');
    await probe.mark('quiet');
    await settle();
    const quiet = await probe.report('quiet');

    expect(collected.gc.major).toBe(3);
    expect(collected.gc.majorMs).toBeGreaterThan(0);
    expect(quiet.gc.major).toBe(0);
  });

  it('counts the pauses of 10 ms or more and knows the longest', async () => {
    await probe.mark('pauses');
    await tell('heap');
    await tell('collect');
    const { gc } = await probe.report('pauses');

    // Full collections that mark 1.5 M live objects each: every one of them a long pause.
    expect(gc.major).toBeGreaterThanOrEqual(4);
    expect(gc.longestMs).toBeGreaterThanOrEqual(gc.majorMs / gc.major);
    expect(gc.longestMs).toBeGreaterThanOrEqual(10);
    expect(gc.longPauses).toBeGreaterThanOrEqual(3);
  });

  it('refuses to report a window that was never opened', async () => {
    await expect(probe.report('never')).rejects.toThrow('no window never');
  });
});
