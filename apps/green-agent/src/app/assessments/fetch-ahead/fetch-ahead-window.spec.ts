import { parseTaskRef, type TaskRef } from '@arvo-rca/common';
import { FetchAhead } from './fetch-ahead';

const refs: TaskRef[] = ['1', '2', '3', '4', '5'].map((id) => parseTaskRef(`arvo:${id}`, ['arvo']));

/** A window's work as it happens: each task's fetch held until the spec lets it end, and each preparation. */
class Scene {
  readonly asked: string[] = [];
  readonly prepared: number[] = [];
  private readonly open = new Map<string, (ready: boolean) => void>();

  readonly work = {
    fetch: (ref: TaskRef): Promise<boolean> => {
      this.asked.push(ref.id);
      return new Promise<boolean>((resolve) => this.open.set(ref.id, resolve));
    },
    prepare: (index: number): void => {
      this.prepared.push(index);
    },
  };

  /** Ends the fetch of task `id` (its image there, or no room for it), then lets the window go on. */
  async end(id: string, ready = true): Promise<void> {
    const resolve = this.open.get(id);
    if (!resolve) throw new Error(`task ${id} is not being fetched`);
    this.open.delete(id);
    resolve(ready);
    await settle();
  }
}

async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
}

describe('the window of tasks fetched ahead', () => {
  it('fetches the tasks after those whose turn came, one at a time, no further than its size', async () => {
    const scene = new Scene();
    const ahead = new FetchAhead(refs, 2, 0, scene.work);
    ahead.turnOf(0);
    await settle();

    // Task 1 was asked for as the window opened, and left to its own run once its turn came.
    expect(scene.asked).toEqual(['1', '2']);
    await scene.end('1');
    expect(scene.asked).toEqual(['1', '2']);
    await scene.end('2');
    await scene.end('3');
    // Tasks 2 and 3 fetched: the window of 2 after task 1 is full until the next turn.
    expect(scene.asked).toEqual(['1', '2', '3']);
    ahead.turnOf(1);
    await settle();
    expect(scene.asked).toEqual(['1', '2', '3', '4']);
    await scene.end('4');
    await ahead.close();
  });

  it('leaves a task whose turn came while it is fetched to its own run, goes on to the next at once, and waits for the one left at close', async () => {
    const scene = new Scene();
    const ahead = new FetchAhead(refs, 2, 1, scene.work);
    ahead.turnOf(0);
    await settle();
    expect(scene.asked).toEqual(['1', '2']);

    // Task 2's pull is long, and its turn comes first: the window asks for task 3 while task 2's fetch goes on.
    ahead.turnOf(1);
    await settle();
    expect(scene.asked).toEqual(['1', '2', '3']);
    await scene.end('3');
    expect(scene.prepared).toEqual([2]);

    let closed = false;
    const closing = ahead.close().then(() => (closed = true));
    await scene.end('4');
    await scene.end('1');
    expect(closed).toBe(false);
    await scene.end('2');
    await closing;
    expect(closed).toBe(true);
    expect(scene.prepared).toEqual([2]);
  });

  it('tries a task whose image found no room again when a task ends, and leaves it once its turn came', async () => {
    const scene = new Scene();
    const ahead = new FetchAhead(refs, 1, 0, scene.work);
    ahead.turnOf(0);
    await settle();
    await scene.end('1');

    await scene.end('2', false);
    expect(scene.asked).toEqual(['1', '2']);
    ahead.taskEnded();
    await settle();
    expect(scene.asked).toEqual(['1', '2', '2']);
    ahead.turnOf(1);
    await scene.end('2', false);
    // Its turn came meanwhile: it pulls its own; the window goes on to the next.
    expect(scene.asked).toEqual(['1', '2', '2', '3']);
    await scene.end('3');
    await ahead.close();
  });

  it('prepares the first fetched tasks of the window, never one whose turn came, and nothing once closed', async () => {
    const scene = new Scene();
    const ahead = new FetchAhead(refs, 3, 1, scene.work);
    ahead.turnOf(0);
    await settle();
    await scene.end('1');
    await scene.end('2');
    await scene.end('3');

    // Tasks 2 and 3 are fetched, only the first of them prepared.
    expect(scene.prepared).toEqual([1]);
    ahead.turnOf(1);
    expect(scene.prepared).toEqual([1, 2]);
    await scene.end('4');
    ahead.turnOf(2);
    expect(scene.prepared).toEqual([1, 2, 3]);
    // Task 5's turn comes while it is fetched: it is never prepared ahead.
    ahead.turnOf(4);
    await scene.end('5');
    await ahead.close();
    expect(scene.prepared).toEqual([1, 2, 3]);
  });

  it('fetches and prepares nothing with a window of 0, nor after its assessment was canceled', async () => {
    const off = new Scene();
    const none = new FetchAhead(refs, 0, 0, off.work);
    none.turnOf(0);
    await settle();
    await none.close();
    expect(off.asked).toEqual([]);

    const canceled = new Scene();
    const cancel = new AbortController();
    const ahead = new FetchAhead(refs, 2, 2, canceled.work, cancel.signal);
    await settle();
    cancel.abort();
    await canceled.end('1');
    await ahead.close();
    expect(canceled.asked).toEqual(['1']);
    expect(canceled.prepared).toEqual([]);
  });
});
