import { textHead } from './text-head';

describe('textHead', () => {
  it('gives a text within the bound as it is', () => {
    expect(textHead('solver working: step 3', 64)).toBe('solver working: step 3');
    expect(textHead('é'.repeat(32), 64)).toBe('é'.repeat(32));
  });

  it('cuts a longer text to its head and says how much was left out', () => {
    const text = 'x'.repeat(60 * 1024);
    const head = textHead(text, 1024);
    expect(head).toBe(`${'x'.repeat(1024)} … [59.0 KiB more left out]`);
  });

  it('never cuts a character in two', () => {
    // 'é' is two bytes: a bound of 5 keeps two of them whole, not two and a half.
    const head = textHead('é'.repeat(10), 5);
    expect(head).toBe('éé … [16 B more left out]');
    expect(head).not.toContain('\uFFFD');
  });

  it('costs the bound, not the text: a 64 MiB text is cut without copying it whole', () => {
    const text = 'y'.repeat(64 * 1024 * 1024);
    expect(textHead(text, 100)).toBe(`${'y'.repeat(100)} … [64.0 MiB more left out]`);
  });
});
