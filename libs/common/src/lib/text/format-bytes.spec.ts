import { formatBytes } from './format-bytes';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KiB'],
    [256 * 1024, '256.0 KiB'],
    [1.5 * 1024 ** 2, '1.5 MiB'],
    [64 * 1024 ** 2, '64.0 MiB'],
    [2 * 1024 ** 3, '2.0 GiB'],
    [3 * 1024 ** 5, '3072.0 TiB'],
  ])('shows %d bytes as %s', (bytes, shown) => {
    expect(formatBytes(bytes)).toBe(shown);
  });
});
