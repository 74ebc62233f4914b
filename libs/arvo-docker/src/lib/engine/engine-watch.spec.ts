import { EngineWatch, type EngineProbe } from './engine-watch';

const TIMING = { intervalMs: 40, pingTimeoutMs: 30, misses: 3 };
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** An engine's ping as the watch sees it: answered while `up`, else left to time out; every ping counted. */
class Probe implements EngineProbe {
  readonly address = 'unix:///var/run/test.sock';
  up = true;
  pings = 0;

  async answers(timeoutMs: number): Promise<boolean> {
    this.pings += 1;
    if (this.up) return true;
    await pause(timeoutMs);
    return false;
  }
}

describe('the engine watch: one ping for every operation that waits on the engine', () => {
  it('pings once an interval however many operations wait, and not at all once none does', async () => {
    const probe = new Probe();
    const watch = new EngineWatch(probe, TIMING);
    const done = Array.from({ length: 50 }, (_, index) =>
      watch.whileAnswers(
        `command ${index}`,
        pause(300).then(() => index),
      ),
    );

    expect(await Promise.all(done)).toEqual(Array.from({ length: 50 }, (_, index) => index));
    // 300 ms at one ping each 40 ms: about 7, where a watch per operation made 50 times as many.
    expect(probe.pings).toBeGreaterThanOrEqual(1);
    expect(probe.pings).toBeLessThanOrEqual(8);
    const after = probe.pings;
    await pause(200);
    expect(probe.pings).toBe(after);
  });

  it('fails every operation still waiting once the engine misses its pings, each saying what it was doing', async () => {
    const probe = new Probe();
    const watch = new EngineWatch(probe, TIMING);
    const quick = watch.whileAnswers(
      'reading a file',
      pause(20).then(() => 'read'),
    );
    const hanging = ['starting task-1', 'running a command in task-2'].map((what) => watch.whileAnswers(what, new Promise<never>(() => undefined)));
    expect(await quick).toBe('read');
    probe.up = false;

    const failures = await Promise.all(hanging.map((work) => work.catch((error: unknown) => error)));
    expect(failures).toEqual([
      expect.objectContaining({
        code: 'ENGINE_UNAVAILABLE',
        message: expect.stringMatching(
          /^the Docker engine at unix:\/\/\/var\/run\/test\.sock stopped answering \(3 pings in a row unanswered, \d+ s\) while starting task-1$/,
        ),
      }),
      expect.objectContaining({ code: 'ENGINE_UNAVAILABLE', message: expect.stringMatching(/while running a command in task-2$/) }),
    ]);
  });

  it('forgives a ping it missed once the engine answers again', async () => {
    const probe = new Probe();
    const watch = new EngineWatch(probe, TIMING);
    const work = watch.whileAnswers(
      'pulling an image',
      pause(600).then(() => 'pulled'),
    );
    probe.up = false;
    await pause(110); // two pings missed
    probe.up = true;

    expect(await work).toBe('pulled');
  });
});
