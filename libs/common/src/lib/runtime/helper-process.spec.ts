import { HelperProcess } from './helper-process';
import { waitUntil } from './wait-until.testing';

// An echo helper: it answers each request with the request and its own pid, and exits on 'exit'.
const ECHO = `process.on('message', (request) => (request === 'exit' ? process.exit(3) : process.send({ request, pid: process.pid })));`;

interface Echo {
  request: string;
  pid: number;
}

describe('HelperProcess', () => {
  it('starts on first use, answers through its owner, and after it went is started again on the next use, saying why it went', async () => {
    const replies: Echo[] = [];
    const starts: number[] = [];
    const losses: string[] = [];
    const helper: HelperProcess<string, Echo> = new HelperProcess<string, Echo>(ECHO, {
      message: (reply) => replies.push(reply),
      started: () => starts.push(helper.pid ?? -1),
      lost: (why) => losses.push(why),
    });
    try {
      expect(helper.pid).toBeUndefined();
      helper.sendIfRunning('unheard');
      expect(helper.pid).toBeUndefined();

      helper.send('one');
      await waitUntil('the first reply', () => replies.length === 1 || undefined, 10_000, 20);
      const first = helper.pid;
      expect(replies).toEqual([{ request: 'one', pid: first }]);

      helper.send('exit');
      await waitUntil('the helper to go', () => losses.length === 1 || undefined, 10_000, 20);
      expect(losses).toEqual(['stopped (exit 3)']);
      expect(helper.pid).toBeUndefined();

      helper.send('two');
      await waitUntil('the second reply', () => replies.length === 2 || undefined, 10_000, 20);
      expect(replies[1]).toEqual({ request: 'two', pid: helper.pid });
      expect(helper.pid).not.toBe(first);
      expect(starts).toEqual([first, helper.pid]);
    } finally {
      helper.send('exit');
      await waitUntil('the helper to go at the end', () => helper.pid === undefined || undefined, 10_000, 20);
    }
  });
});
