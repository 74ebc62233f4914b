import { join, resolve } from 'node:path';
import { FileReadError, readRegularFile } from '@arvo-rca/common';
import { isListName, NAMED_TASK_LISTS, namedTaskList } from './named-task-lists';
import { TaskListError } from './task-list-error';
import { parseTaskListText } from './task-list-text';

/** A list of task ids as read, before any id is checked against the task sources. */
export interface TaskList {
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

// A list of 100,000 ids is under 1 MiB; a larger file is no task list.
const MAX_LIST_BYTES = 4 * 1024 * 1024;

/**
 * Task lists: the named ones in `dir` (TASK_LISTS_DIR), and files given by path, relative to `baseDir`.
 * Every failure is a TaskListError that names the problem: an unknown name, a named list whose file is
 * not there, a file that cannot be read, a line that is not a task id (by its number).
 */
export class TaskLists implements TaskListReader {
  constructor(
    private readonly dir: string,
    private readonly baseDir = process.cwd(),
  ) {}

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
    const text = await readListFile(path);
    if (typeof text !== 'string') {
      throw new TaskListError('TASK_LIST_UNREADABLE', text.missing ? `task list file ${spec} does not exist (looked for ${path})` : text.reason);
    }
    return { origin: spec, ...parseTaskListText(text, `task list file ${spec}`) };
  }
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
