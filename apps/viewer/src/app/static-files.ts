import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';

export interface StaticFile {
  type: string;
  body: Buffer;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * The page's files, read once at start from one flat folder and served by name: a request can only ever
 * name one of them, never a path.
 */
export async function loadStaticFiles(folder: string): Promise<Map<string, StaticFile>> {
  const files = new Map<string, StaticFile>();
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const type = TYPES[extname(entry.name)];
    if (!entry.isFile() || !type) continue;
    const body = await readFile(join(folder, entry.name));
    files.set(entry.name === 'index.html' ? '/' : `/${entry.name}`, { type, body });
  }
  if (!files.has('/')) throw new Error(`${folder} has no index.html: the viewer's page is missing`);
  return files;
}
