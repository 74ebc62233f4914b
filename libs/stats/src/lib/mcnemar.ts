// McNemar's exact test for paired 0/1 outcomes: only the discordant pairs carry information, and under
// the null hypothesis (both runs succeed equally often) each is as likely to go one way as the other.

export interface McNemarTest {
  /** Pairs where run A succeeded and run B did not. */
  a_only: number;
  /** Pairs where run B succeeded and run A did not. */
  b_only: number;
  /** Two-sided exact p-value: twice the smaller tail of Binomial(discordant, 1/2), at most 1; 1 with no discordant pair. */
  p_value: number;
}

export function mcnemarExact(aOnly: number, bOnly: number): McNemarTest {
  for (const count of [aOnly, bOnly])
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`a count of discordant pairs is a whole number, not ${count}`);
  const discordant = aOnly + bOnly;
  const smaller = Math.min(aOnly, bOnly);
  // P(X <= smaller) term by term in logs: C(n, i) / 2^n underflows long before n reaches real run sizes.
  let logChoose = 0;
  let tail = 0;
  for (let i = 0; i <= smaller; i++) {
    if (i > 0) logChoose += Math.log(discordant - i + 1) - Math.log(i);
    tail += Math.exp(logChoose - discordant * Math.LN2);
  }
  return { a_only: aOnly, b_only: bOnly, p_value: Math.min(1, 2 * tail) };
}
