import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { FileReadError, readRegularFile } from '@arvo-rca/common';
import { isListName, NAMED_TASK_LISTS, namedTaskList } from './named-task-lists';
import { TaskListError } from './task-list-error';
import { parseTaskListText } from './task-list-text';

/** A list of task ids as read, before any id is checked against the task sources. */
interface TaskList {
  /** What the list was asked for as, for records and messages: its name (`rcabench-clean-181`), or the file's path as given. */
  origin: string;
  ids: string[];
  /** The line of its file each id is on, for messages about an id. */
  lines: number[];
}

/** Anything that reads task lists: the green agent reads `config.task_ids_file` through one. */
export interface TaskListReader {
  read(spec: string): Promise<TaskList>;
}

/** Where list files named by path may be read from. */
interface TaskListsOptions {
  /** Where a relative path is taken from; the working directory unless given. */
  baseDir?: string;
  /**
   * The folders a list file may be in once its links are resolved; unset, the named lists' folder alone.
   * `anywhere` is for a reader of its own user's files (the runner), never for one that reads for others.
   */
  fileFolders?: readonly string[] | 'anywhere';
}

// A list of 100,000 ids is under 1 MiB; a larger file is no task list.
const MAX_LIST_BYTES = 4 * 1024 * 1024;

/**
 * Task lists: the named ones in `dir` (TASK_LISTS_DIR), and files given by path, relative to `baseDir`, in
 * the allowed folders. Every failure is a TaskListError that names the problem: an unknown name, a named
 * list whose file is not there, a file that cannot be read, a line that is not a task id (by its number).
 * A path out of the allowed folders is refused alike whatever it names: the refusal tells nothing of it.
 */
export class TaskLists implements TaskListReader {
  private readonly baseDir: string;
  private readonly fileFolders: readonly string[] | 'anywhere';

  constructor(
    private readonly dir: string,
    options: TaskListsOptions = {},
  ) {
    this.baseDir = options.baseDir ?? process.cwd();
    this.fileFolders = options.fileFolders ?? [dir];
  }

  /** `spec`: a list name (`rcabench-clean-181` or `@rcabench-clean-181`), one of the original's paths for one, or a file's path. */
  async read(spec: string): Promise<TaskList> {
    const named = namedTaskList(spec);
    if (named) {
      const path = join(this.dir, named.file);
      const text = await readListFile(path);
      if (typeof text === 'string') return { origin: named.name, ...parseTaskListText(text, `task list ${named.name}`) };
      if (text.missing) {
        const what = `task list ${named.name} is not bundled here: ${path} is missing (TASK_LISTS_DIR)`;
        throw new TaskListError('TASK_LIST_NOT_BUNDLED', `${what}; it is ${named.provenance}`);
      }
      throw new TaskListError('TASK_LIST_UNREADABLE', `task list ${named.name}: ${text.reason}`);
    }
    if (isListName(spec)) {
      const names = NAMED_TASK_LISTS.map((list) => list.name).join(', ');
      const message = `there is no task list named ${JSON.stringify(spec.trim())} (known lists: ${names}; a file is named by a path such as ./my-list.txt)`;
      throw new TaskListError('UNKNOWN_TASK_LIST', message);
    }
    const path = resolve(this.baseDir, spec);
    const text = this.fileFolders === 'anywhere' ? await readListFile(path) : await this.readConfined(spec, path, this.fileFolders);
    if (typeof text !== 'string') {
      throw new TaskListError('TASK_LIST_UNREADABLE', text.missing ? `task list file ${spec} does not exist (looked for ${path})` : text.reason);
    }
    return { origin: spec, ...parseTaskListText(text, `task list file ${spec}`) };
  }

  /**
   * The text of a list file that is, links resolved, a regular file in one of `folders`. Anything else (a
   * path out of them, a link out, a missing file, a device) is refused with one message, so that a requester
   * learns nothing of what the green agent could read: not its lines, not even whether it exists.
   */
  private async readConfined(spec: string, path: string, folders: readonly string[]): Promise<string | { missing: boolean; reason: string }> {
    const roots = await Promise.all(folders.map((folder) => realpath(resolve(this.baseDir, folder)).catch(() => undefined)));
    const real = await realpath(path).catch(() => undefined);
    const root = real === undefined ? undefined : roots.find((folder) => folder !== undefined && isInside(folder, real));
    const refusal = (): TaskListError => {
      const allowed = folders.map((folder) => resolve(this.baseDir, folder)).join(', ');
      const message = `task list file ${JSON.stringify(spec)} is not one this green agent reads: a list file must be a regular file in ${allowed}`;
      return new TaskListError('TASK_LIST_NOT_ALLOWED', `${message} (or name a task list: ${NAMED_TASK_LISTS.map((list) => list.name).join(', ')})`);
    };
    if (real === undefined || root === undefined) throw refusal();
    try {
      // The folder checked again on the open file: a link swapped in meanwhile is not followed out.
      return (await readRegularFile(real, { maxBytes: MAX_LIST_BYTES, within: root })).toString('utf8');
    } catch (error) {
      if (error instanceof FileReadError && error.code === 'FILE_TOO_LARGE') return { missing: false, reason: error.message };
      if (error instanceof FileReadError) throw refusal();
      throw error;
    }
  }
}

/** Whether `path` is below `folder` (both with their links resolved). */
function isInside(folder: string, path: string): boolean {
  const inside = relative(folder, path);
  return inside !== '' && inside !== '..' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside);
}

/** The text of a list file; else whether it is missing, and why it cannot be read. A FIFO, a device or a huge file is refused without reading it. */
async function readListFile(path: string): Promise<string | { missing: boolean; reason: string }> {
  try {
    return (await readRegularFile(path, { maxBytes: MAX_LIST_BYTES })).toString('utf8');
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    return { missing: (error.cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT', reason: error.message };
  }
}
