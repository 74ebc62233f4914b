const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** A size as messages and logs show it: bytes below 1 KiB, else the largest binary unit it reaches, to one decimal. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${UNITS[unit]}`;
}
