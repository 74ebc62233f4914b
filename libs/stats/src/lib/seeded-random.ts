// The one seeded pseudo-random generator of the project: mulberry32, a 32-bit state advanced by a Weyl
// step and mixed by two multiply-xorshift rounds. Every step is integer arithmetic on 32 bits
// (Math.imul, >>>), so a seed gives the same sequence on every Node version and platform, and the few
// lines port exactly to any language (libs/stats/fixtures/bootstrap-reference.py is one such port).

const WEYL = 0x6d2b79f5;
const TWO_TO_32 = 2 ** 32;

export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < 0 || seed >= TWO_TO_32) throw new RangeError(`a seed is an integer from 0 to 2^32 - 1, not ${seed}`);
    this.state = seed >>> 0;
  }

  /** The next 32-bit unsigned integer. */
  nextUint32(): number {
    this.state = (this.state + WEYL) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1) >>> 0;
    t = (t ^ ((t + Math.imul(t ^ (t >>> 7), t | 61)) >>> 0)) >>> 0;
    return (t ^ (t >>> 14)) >>> 0;
  }

  /**
   * An index from 0 to `count` - 1: floor(u * count / 2^32) for the next u. Exact in doubles while
   * u * count stays under 2^53 (count under 2^21), which the check keeps.
   */
  nextIndex(count: number): number {
    if (!Number.isInteger(count) || count < 1 || count >= 2 ** 21) throw new RangeError(`an index is drawn among 1 to 2^21 - 1 items, not ${count}`);
    return Math.floor((this.nextUint32() * count) / TWO_TO_32);
  }
}
