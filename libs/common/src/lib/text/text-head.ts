import { formatBytes } from './format-bytes';

/**
 * `text` when it is at most `maxBytes` of UTF-8, else its head of at most `maxBytes` bytes (never a
 * broken character) and how much was left out: how a text someone else controls (a peer's status, a
 * command, an error) is logged or shown, so that its size never decides the size of what we write.
 */
export function textHead(text: string, maxBytes: number): string {
  // A UTF-16 unit is at most 3 bytes of UTF-8: most texts are settled without encoding them.
  if (text.length * 3 <= maxBytes) return text;
  const bytes = Buffer.byteLength(text);
  if (bytes <= maxBytes) return text;
  const head = Buffer.from(text.slice(0, maxBytes))
    .subarray(0, maxBytes)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
  return `${head} … [${formatBytes(bytes - Buffer.byteLength(head))} more left out]`;
}
