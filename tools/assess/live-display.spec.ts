import { LiveDisplay } from './live-display';

describe("the runner's live display, written to a log", () => {
  const pull = { image: 'n132/arvo:7-vul', layers: 3, bytes: 300 * 1024 ** 2 };

  it('says once when the image of a task is pulled, and whether ahead of its turn', () => {
    const lines: string[] = [];
    const display = new LiveDisplay(2, false, (line) => lines.push(line));

    display.update({ task: 'arvo:7', kind: 'pull', ...pull, layersDone: 1, bytesDone: 100 * 1024 ** 2 });
    display.update({ task: 'arvo:7', kind: 'pull', ...pull, layersDone: 3, bytesDone: pull.bytes });
    display.update({ task: 'arvo:7', kind: 'pull', ...pull, layersDone: 3, bytesDone: pull.bytes });
    display.update({ task: 'arvo:8', kind: 'started' });
    display.update({ task: 'arvo:8', kind: 'pull', ...pull, image: 'n132/arvo:8-vul', layersDone: 3, bytesDone: pull.bytes });
    display.stop();

    expect(lines).toEqual([
      'pulled    arvo:7  n132/arvo:7-vul  300.0 MiB (ahead of its turn)',
      'started   arvo:8',
      'pulled    arvo:8  n132/arvo:8-vul  300.0 MiB',
    ]);
  });
});
