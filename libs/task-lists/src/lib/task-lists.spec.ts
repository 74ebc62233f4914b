import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drawTasks } from './seeded-draw';
import { TaskListError } from './task-list-error';
import { TaskLists } from './task-lists';

const ROOT = join(__dirname, '..', '..', '..', '..');
const LISTS_DIR = join(ROOT, 'task-lists');

describe('task lists', () => {
  let scratch: string;
  let lists: TaskLists;

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'task-lists-'));
    // The runner's reader: the user's own files, wherever they are.
    lists = new TaskLists(LISTS_DIR, { baseDir: scratch, fileFolders: 'anywhere' });
  });

  afterEach(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  async function refusal(spec: string, reader = lists): Promise<TaskListError> {
    const error = await reader.read(spec).catch((caught: unknown) => caught);
    if (!(error instanceof TaskListError)) throw new Error(`${spec} was not refused: ${JSON.stringify(error)}`);
    return error;
  }

  describe('the named lists', () => {
    it("ships the original's 1,000 ARVO ids and its 181 confirmed clean ones, each once, the clean ones among the 1,000", async () => {
      const all = await lists.read('rcabench-1000');
      const clean = await lists.read('rcabench-clean-181');

      expect(all).toMatchObject({ origin: 'rcabench-1000', ids: expect.arrayContaining(['10013', '14368', '56454']) });
      expect(new Set(all.ids).size).toBe(1000);
      expect(all.ids.every((id) => /^\d+$/.test(id))).toBe(true);
      expect(clean.ids.slice(0, 3)).toEqual(['1065', '1236', '1237']);
      expect(new Set(clean.ids).size).toBe(181);
      expect(clean.ids.filter((id) => !all.ids.includes(id))).toEqual([]);
    });

    it('ships the bundled samples as samples, every one of them', async () => {
      const bundled = readdirSync(join(ROOT, 'samples')).filter((name) => /^\d+$/.test(name));

      expect((await lists.read('samples')).ids).toEqual(bundled.sort((a, b) => Number(a) - Number(b)).map((id) => `sample:${id}`));
    });

    it("reads a list by its name after @, and by the paths the original's requests name it by", async () => {
      const clean = await lists.read('rcabench-clean-181');

      expect(await lists.read('@rcabench-clean-181')).toEqual(clean);
      expect(await lists.read('data/successful_task_ids.txt')).toEqual(clean);
      expect(await lists.read('successful_task_ids.txt')).toEqual(clean);
      expect((await lists.read('data/arvo_hf_task_ids.txt')).origin).toBe('rcabench-1000');
    });

    // Computed by an implementation of the documented draw in another language (Python integers).
    it('draws the same 20 of rcabench-clean-181 with seed 7 as an independent implementation of the draw', async () => {
      const { ids } = await lists.read('@rcabench-clean-181');

      expect(drawTasks(ids, 20, 7)).toEqual(
        '17715 34096 5496 25530 55886 18798 44610 11504 5494 42736 34013 31250 18152 4440 25885 55820 54949 49455 42479 44887'.split(' '),
      );
    });

    it('names an unknown list and the known ones', async () => {
      const error = await refusal('@rcabench-2000');

      expect(error.code).toBe('UNKNOWN_TASK_LIST');
      expect(error.message).toBe(
        'there is no task list named "@rcabench-2000" (known lists: rcabench-1000, rcabench-clean-181, samples; a file is named by a path such as ./my-list.txt)',
      );
      expect((await refusal('clean')).code).toBe('UNKNOWN_TASK_LIST');
    });

    it('says where a named list comes from when its file is not bundled', async () => {
      const error = await refusal('rcabench-1000', new TaskLists(scratch));

      expect(error.code).toBe('TASK_LIST_NOT_BUNDLED');
      expect(error.message).toBe(
        `task list rcabench-1000 is not bundled here: ${join(scratch, 'rcabench-1000.txt')} is missing (TASK_LISTS_DIR); ` +
          "it is the original's data/arvo_hf_task_ids.txt: 1,000 ARVO ids of the CyberGym data set",
      );
    });
  });

  describe('list files', () => {
    it('reads one id a line, relative to its base folder, skipping comments and blank lines, whatever the line ends', async () => {
      writeFileSync(join(scratch, 'mine.txt'), '\uFEFF# my tasks\r\narvo:14368\r\n\r\n  10055  # the second\nsample:1\n');

      expect(await lists.read('mine.txt')).toEqual({ origin: 'mine.txt', ids: ['arvo:14368', '10055', 'sample:1'], lines: [2, 4, 5] });
      expect(await lists.read(join(scratch, 'mine.txt'))).toMatchObject({ ids: ['arvo:14368', '10055', 'sample:1'] });
    });

    it('names each line that is no task id by its number, without repeating its text', async () => {
      writeFileSync(join(scratch, 'bad.txt'), 'arvo:1\narvo 2\n\narvo:3;rm\nsample:4\nroot:x:0:0:root:/root:/bin/bash\n');

      const error = await refusal('./bad.txt');

      expect(error.code).toBe('TASK_LIST_INVALID');
      expect(error.message).toBe(
        'task list file ./bad.txt: lines 2, 4 and 6 are not task ids (one task id a line, such as arvo:14368 or 14368; # starts a comment)',
      );
    });

    it('names the first ten bad lines and counts the rest', async () => {
      writeFileSync(join(scratch, 'bad.txt'), Array.from({ length: 14 }, (_, index) => `bad id ${index}`).join('\n'));

      expect((await refusal('bad.txt')).message).toMatch(/^task list file bad.txt: lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 4 more are not task ids /);
      writeFileSync(join(scratch, 'one.txt'), 'arvo:1\n\tarvo:2 arvo:3\n');
      expect((await refusal('one.txt')).message).toMatch(/^task list file one.txt: line 2 is not a task id /);
    });

    it('refuses a list that names no task', async () => {
      writeFileSync(join(scratch, 'empty.txt'), '# nothing yet\n\n');

      expect((await refusal('empty.txt')).message).toBe('task list file empty.txt names no task');
    });

    it('names a file that is missing, a folder and a FIFO as unreadable, reading none of them', async () => {
      mkdirSync(join(scratch, 'folder.d'));
      execFileSync('mkfifo', [join(scratch, 'pipe.txt')]);

      expect(await refusal('missing.txt')).toMatchObject({
        code: 'TASK_LIST_UNREADABLE',
        message: `task list file missing.txt does not exist (looked for ${join(scratch, 'missing.txt')})`,
      });
      expect((await refusal('folder.d')).message).toBe(`cannot read ${join(scratch, 'folder.d')}: it is a folder, not a regular file`);
      expect((await refusal('pipe.txt')).message).toBe(`cannot read ${join(scratch, 'pipe.txt')}: it is a FIFO, not a regular file`);
    });
  });

  describe('list files of a green agent, which reads for anyone who reaches it', () => {
    let allowed: string;
    let confined: TaskLists;
    const refusalOf = (spec: string): string =>
      `task list file ${JSON.stringify(spec)} is not one this green agent reads: a list file must be a regular file in ${LISTS_DIR}, ${allowed} ` +
      '(or name a task list: rcabench-1000, rcabench-clean-181, samples)';

    beforeEach(() => {
      allowed = join(scratch, 'allowed');
      mkdirSync(allowed);
      confined = new TaskLists(LISTS_DIR, { baseDir: scratch, fileFolders: [LISTS_DIR, allowed] });
      writeFileSync(join(scratch, 'outside.txt'), '14368\n10055\nnot an id\n');
    });

    it("reads a named list, and a regular file in the operator's folder by its path, links within it included", async () => {
      writeFileSync(join(allowed, 'mine.txt'), 'arvo:14368\nsample:1\n');
      symlinkSync(join(allowed, 'mine.txt'), join(allowed, 'alias.txt'));

      expect((await confined.read('samples')).ids).toHaveLength(5);
      expect(await confined.read(join(allowed, 'mine.txt'))).toEqual({ origin: join(allowed, 'mine.txt'), ids: ['arvo:14368', 'sample:1'], lines: [1, 2] });
      expect((await confined.read('allowed/alias.txt')).ids).toEqual(['arvo:14368', 'sample:1']);
    });

    it('refuses any other path alike, naming the allowed folders and nothing of the file: not its lines, not whether it is there', async () => {
      symlinkSync(join(scratch, 'outside.txt'), join(allowed, 'link.txt'));
      symlinkSync(scratch, join(allowed, 'up'));
      mkdirSync(join(allowed, 'folder.d'));
      const specs = [
        '/etc/shadow',
        '/etc/passwd',
        '/proc/self/environ',
        join(allowed, '..', 'outside.txt'),
        'allowed/../outside.txt',
        join(allowed, 'link.txt'),
        join(allowed, 'up', 'outside.txt'),
        join(allowed, 'missing.txt'),
        join(scratch, 'missing.txt'),
        join(allowed, 'folder.d'),
        '/dev/zero',
      ];

      for (const spec of specs) {
        const error = await refusal(spec, confined);
        expect({ spec, code: error.code, message: error.message }).toEqual({ spec, code: 'TASK_LIST_NOT_ALLOWED', message: refusalOf(spec) });
      }
    });

    it("reads from the named lists' folder alone unless told otherwise", async () => {
      writeFileSync(join(allowed, 'mine.txt'), 'sample:1\n');
      const error = await refusal(join(allowed, 'mine.txt'), new TaskLists(LISTS_DIR));

      expect(error.message).toContain(`a list file must be a regular file in ${LISTS_DIR} (`);
      expect((await new TaskLists(LISTS_DIR).read(join(LISTS_DIR, 'samples.txt'))).ids).toHaveLength(5);
    });
  });
});
