import { NeededSet } from './needed-set';

describe('NeededSet', () => {
  it('needs a key while any hold still counts a use of it', () => {
    const needed = new NeededSet();
    const first = needed.hold(['a', 'a', 'b']);
    const second = needed.hold(['a']);

    first.release('a');
    first.release('a');
    expect([needed.isNeeded('a'), needed.isNeeded('b')]).toEqual([true, true]);
    second.release('a');
    expect([needed.isNeeded('a'), needed.isNeeded('b')]).toEqual([false, true]);
  });

  it('releases only what a hold took: a release too many, or of a key it never held, changes nothing', () => {
    const needed = new NeededSet();
    const mine = needed.hold(['a']);
    needed.hold(['a', 'b']);

    mine.release('a');
    mine.release('a');
    mine.release('b');
    expect([needed.isNeeded('a'), needed.isNeeded('b')]).toEqual([true, true]);
  });

  it('needs nothing of a hold once it is released whole, and releasing it again is harmless', () => {
    const needed = new NeededSet();
    const hold = needed.hold(['a', 'a', 'b']);

    hold.release('a');
    hold.releaseAll();
    hold.releaseAll();
    expect([needed.isNeeded('a'), needed.isNeeded('b')]).toEqual([false, false]);
  });
});
