import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContentCache } from './content-cache';
import { DEFAULT_DOWNLOAD_POLICY, FileDownloader, type DownloadPolicy } from './file-downloader';
import { HttpFetcher } from './http-fetcher';
import { TaskFileSystem } from '../task-file-system';
import { TaskFileServer } from './task-file-server.testing';
import { parseTaskRef } from '@arvo-rca/common';
import { TaskSource } from '../task-source';

const ARCHIVE = Buffer.alloc(256 * 1024, 'x');
const FILES = new Map([
  ['7/error.txt', Buffer.from('ERROR: AddressSanitizer: heap-buffer-overflow\n')],
  ['7/repo-vul.tar.gz', ARCHIVE],
  ['7/patch.diff', Buffer.from('--- a/x.c\n+++ b/x.c\n')],
]);
const REF = parseTaskRef('arvo:7', ['arvo'], 'arvo');
const FAST: Partial<DownloadPolicy> = { firstRetryDelayMs: 5, maxRetryDelayMs: 20, idleTimeoutMs: 300 };

describe('ContentCache over HTTP', () => {
  let server: TaskFileServer;
  let cacheDir: string;
  let source: TaskSource;
  let lines: string[];
  const log = (line: string): void => void lines.push(line);

  function cache(policy: Partial<DownloadPolicy> = {}, dir = cacheDir): ContentCache {
    const files = new TaskFileSystem();
    const downloader = new FileDownloader(new HttpFetcher(), files, { ...DEFAULT_DOWNLOAD_POLICY, ...FAST, ...policy });
    return new ContentCache(dir, files, downloader);
  }

  beforeEach(async () => {
    server = await TaskFileServer.start(FILES);
    cacheDir = await mkdtemp(join(tmpdir(), 'content-cache-'));
    source = new TaskSource({ name: 'arvo', base: server.baseUrl, imageTemplate: 'n132/arvo:{id}-vul' });
    lines = [];
  });

  afterEach(async () => {
    await server.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  /** The names in the cache folder of task 7: complete files only, never a leftover temporary. */
  async function cachedNames(): Promise<string[]> {
    return (await readdir(join(cacheDir, source.originKey, '7'))).sort();
  }

  it('downloads a file once into the cache and serves it from there afterwards', async () => {
    const contents = cache();
    const first = await contents.fetch(source, REF, 'repo-vul.tar.gz', log);
    const second = await contents.fetch(source, REF, 'repo-vul.tar.gz', log);

    expect(second).toBe(first);
    expect(first.startsWith(cacheDir)).toBe(true);
    expect((await readFile(first)).equals(ARCHIVE)).toBe(true);
    expect(server.requestsFor('7/repo-vul.tar.gz')).toBe(1);
    expect(await cachedNames()).toEqual(['repo-vul.tar.gz']);
  });

  it('shares one download between concurrent requests for the same file', async () => {
    server.trickle('7/repo-vul.tar.gz', 64 * 1024, 20);
    const contents = cache();
    const paths = await Promise.all([1, 2, 3].map(() => contents.fetch(source, REF, 'repo-vul.tar.gz', log)));

    expect(new Set(paths).size).toBe(1);
    expect(server.requestsFor('7/repo-vul.tar.gz')).toBe(1);
    expect(lines.filter((line) => line.includes('joining a download already under way'))).toHaveLength(2);
  });

  it('follows redirects, as the data set does to its CDN', async () => {
    server.redirect = true;
    const path = await cache().fetch(source, REF, 'patch.diff', log);

    expect(await readFile(path, 'utf8')).toContain('+++ b/x.c');
    expect(server.requests).toEqual(['/data/arvo/7/patch.diff', '/cdn/7/patch.diff']);
  });

  it('reports a 404 as task not found at once, without retrying', async () => {
    const missing = parseTaskRef('arvo:99', ['arvo'], 'arvo');

    await expect(cache().fetch(source, missing, 'error.txt', log)).rejects.toThrow(
      expect.objectContaining({
        code: 'TASK_NOT_FOUND',
        message: expect.stringMatching(/task not found: no error.txt at http:\/\/127\.0\.0\.1:\d+\/data\/arvo\/99\/error.txt \(HTTP 404\)/),
      }),
    );
    expect(server.requests).toEqual(['/data/arvo/99/error.txt']);
  });

  it.each([
    ['a 500', 'status-500', /HTTP 500/],
    ['a connection reset mid-body', 'reset', /ECONNRESET|aborted/],
    ['a body cut short of its Content-Length', 'truncate', /aborted|ended after/],
    ['a body that goes silent', 'stall', /no data from .* for 300 ms/],
    ['a server that never answers', 'no-answer', /no data from .* for 300 ms/],
  ] as const)('retries after %s and then succeeds, leaving no partial file behind', async (_name, fault, reason) => {
    server.failNext('7/repo-vul.tar.gz', fault);
    const path = await cache().fetch(source, REF, 'repo-vul.tar.gz', log);

    expect((await readFile(path)).equals(ARCHIVE)).toBe(true);
    expect(server.requestsFor('7/repo-vul.tar.gz')).toBe(2);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`repo-vul.tar.gz: .*${reason.source}.*; retrying \\(attempt 2 of 5\\)`)));
    expect(await cachedNames()).toEqual(['repo-vul.tar.gz']);
  });

  it('waits out a body that is slow but never silent for long', async () => {
    // About 800 ms in all, far longer than the 300 ms idle timeout, with a chunk every 50 ms.
    server.trickle('7/repo-vul.tar.gz', 16 * 1024, 50);
    const path = await cache().fetch(source, REF, 'repo-vul.tar.gz', log);

    expect((await readFile(path)).equals(ARCHIVE)).toBe(true);
    expect(server.requestsFor('7/repo-vul.tar.gz')).toBe(1);
  });

  it('gives up after the configured attempts with a clear DOWNLOAD_FAILED', async () => {
    server.failNext('7/error.txt', 'status-500', 'status-500', 'status-500');

    await expect(cache({ attempts: 3 }).fetch(source, REF, 'error.txt', log)).rejects.toThrow(
      expect.objectContaining({
        code: 'DOWNLOAD_FAILED',
        message: expect.stringMatching(/could not download error.txt from http:\S+\/7\/error.txt after 3 attempts: HTTP 500/),
      }),
    );
    expect(server.requestsFor('7/error.txt')).toBe(3);
    expect(await cachedNames()).toEqual([]);
  });

  it('writes progress lines for a big archive, and none for a small file', async () => {
    const contents = cache({ progressMinBytes: 100 * 1024 });
    await contents.fetch(source, REF, 'error.txt', log);
    await contents.fetch(source, REF, 'repo-vul.tar.gz', log);

    const shares = lines.slice(1, -1).map((line) => Number(/^repo-vul.tar.gz: [\d.]+ KiB \((\d+)%\)$/.exec(line)?.[1]));
    expect(lines[0]).toBe('repo-vul.tar.gz: downloading 256.0 KiB');
    expect(shares.length).toBeGreaterThan(0);
    expect(shares.every((share, i) => share > 0 && share < 100 && (i === 0 || share > shares[i - 1]))).toBe(true);
    expect(lines[lines.length - 1]).toMatch(/^repo-vul.tar.gz: downloaded 256.0 KiB in \d+\.\d s$/);
    expect(lines.some((line) => line.includes('error.txt'))).toBe(false);
  });

  it('creates the cache private: its folder is readable by the green agent only', async () => {
    const fresh = join(cacheDir, 'fresh');
    await cache({}, fresh).fetch(source, REF, 'patch.diff', log);

    expect((await stat(fresh)).mode & 0o777).toBe(0o700);
  });
});
