import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_TASK_SOURCE, fillImageTemplate, parseTaskRef, TaskRefError, type TaskRef } from '@arvo-rca/common';
import { quote, TaskAssetsError } from './task-assets.errors';

/** One place tasks come from: adding a source is adding one of these to the configuration. */
export interface TaskSourceConfig {
  /** The `<source>` of task ids, e.g. `arvo`. */
  name: string;
  /** An http(s) URL, a `file://` URL or a local directory holding `<id>/error.txt` and friends. */
  base: string;
  /** The Docker image of a task, `{id}` standing for its id, e.g. `n132/arvo:{id}-vul`. */
  imageTemplate: string;
}

/** The files of a task in the CyberGym layout. */
export const TASK_FILE_NAMES = ['error.txt', 'repo-vul.tar.gz', 'patch.diff'] as const;
export type TaskFileName = (typeof TASK_FILE_NAMES)[number];

export type TaskFileLocation = { kind: 'remote'; url: URL } | { kind: 'local'; path: string };

type Origin = { kind: 'remote'; base: URL } | { kind: 'local'; dir: string };

const SOURCE_NAME = /^[a-z][a-z0-9_-]*$/;

export class TaskSource {
  readonly name: string;
  /** Distinguishes two bases of one source name, so that a new mirror never serves stale cache entries. */
  readonly originKey: string;
  private readonly origin: Origin;
  private readonly imageTemplate: string;

  constructor(config: TaskSourceConfig) {
    if (!SOURCE_NAME.test(config.name)) {
      throw new Error(`task source name ${quote(config.name)} must match ${SOURCE_NAME}`);
    }
    if (!config.imageTemplate.includes('{id}')) {
      throw new Error(`image template ${quote(config.imageTemplate)} of task source ${config.name} has no {id}`);
    }
    this.name = config.name;
    this.origin = parseOrigin(config);
    this.imageTemplate = config.imageTemplate;
    const where = this.origin.kind === 'remote' ? this.origin.base.href : this.origin.dir;
    this.originKey = `${config.name}-${createHash('sha256').update(where).digest('hex').slice(0, 12)}`;
  }

  get isRemote(): boolean {
    return this.origin.kind === 'remote';
  }

  /** Where the task's files are, for logs. */
  describe(): string {
    return this.origin.kind === 'remote' ? this.origin.base.href : this.origin.dir;
  }

  /** The task's folder in the content cache, relative to it: `<originKey>/<id>`. */
  cacheFolder(ref: TaskRef): string {
    this.assertOwn(ref);
    return join(this.originKey, ref.id);
  }

  locate(ref: TaskRef, file: TaskFileName): TaskFileLocation {
    this.assertOwn(ref);
    return this.origin.kind === 'remote'
      ? { kind: 'remote', url: new URL(`${encodeURIComponent(ref.id)}/${file}`, this.origin.base) }
      : { kind: 'local', path: join(this.origin.dir, ref.id, file) };
  }

  image(ref: TaskRef): string {
    this.assertOwn(ref);
    return fillImageTemplate(this.imageTemplate, ref.id);
  }

  private assertOwn(ref: TaskRef): void {
    if (ref.source !== this.name) throw new Error(`task ${ref.taskId} does not belong to source ${this.name}`);
  }
}

/** The configured task sources; turns task id text into validated references. */
export class TaskSourceRegistry {
  private readonly sources: ReadonlyMap<string, TaskSource>;

  constructor(
    configs: readonly TaskSourceConfig[],
    private readonly defaultSource = DEFAULT_TASK_SOURCE,
  ) {
    const sources = new Map<string, TaskSource>();
    for (const config of configs) {
      if (sources.has(config.name)) throw new Error(`task source ${config.name} is configured twice`);
      sources.set(config.name, new TaskSource(config));
    }
    this.sources = sources;
  }

  get names(): string[] {
    return [...this.sources.keys()];
  }

  /** Validates `<source>:<id>` (or a bare id of the default source); throws a TaskAssetsError when it is not one. */
  parse(text: string): TaskRef {
    try {
      return parseTaskRef(text, this.names, this.defaultSource);
    } catch (error) {
      throw error instanceof TaskRefError ? new TaskAssetsError(error.code, error.message, { cause: error }) : error;
    }
  }

  source(ref: TaskRef): TaskSource {
    const source = this.sources.get(ref.source);
    if (!source) throw new TaskAssetsError('UNKNOWN_TASK_SOURCE', `unknown task source ${quote(ref.source)}`);
    return source;
  }
}

/**
 * The folders on this host that task sources read in place (a directory or a `file://` base): they hold
 * every task's `patch.diff`, so a sandbox must not show them. Remote sources have none.
 */
export function localSourceDirs(configs: readonly TaskSourceConfig[]): string[] {
  return configs.flatMap((config) => {
    const origin = parseOrigin(config);
    return origin.kind === 'local' ? [origin.dir] : [];
  });
}

function parseOrigin(config: TaskSourceConfig): Origin {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(config.base)) return { kind: 'local', dir: resolve(config.base) };
  const url = new URL(config.base);
  if (url.protocol === 'file:') return { kind: 'local', dir: fileURLToPath(url) };
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`task source ${config.name}: base ${quote(config.base)} is neither http(s), file:// nor a directory`);
  }
  // A trailing slash makes relative resolution keep the last path segment.
  return { kind: 'remote', base: new URL(url.href.endsWith('/') ? url.href : `${url.href}/`) };
}
