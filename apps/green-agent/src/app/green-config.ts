import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsNumber, IsOptional, IsPositive, IsString, IsUrl, Matches, Min } from 'class-validator';
import { AppConfig } from '@arvo-rca/agent-app';
import { DEFAULT_SANDBOX_OPTIONS, SANDBOX_CHOICES, type SandboxChoice } from '@arvo-rca/sandbox';
import { TASK_SOURCE_IMAGES } from '@arvo-rca/common';
import { DEFAULT_ARCHIVE_LIMITS } from './task-assets/archive/archive-limits';

const GIB = 1024 ** 3;

/**
 * The green agent's configuration, validated once at boot and injected as it is; `.env.example`
 * documents each variable. The sandbox's and the archives' defaults live with them and are read here.
 */
export class GreenConfig extends AppConfig {
  override PORT: number = 9009;

  @IsUrl({ require_tld: false, require_protocol: true })
  PURPLE_AGENT_URL: string = 'http://127.0.0.1:9019/';

  @IsString()
  TMP_DIR: string = DEFAULT_SANDBOX_OPTIONS.tmpDir;

  @IsString()
  CACHE_DIR: string = './.cache/arvo-rca';

  @IsString()
  ARVO_DATA_URL: string = 'https://huggingface.co/datasets/sunblaze-ucb/cybergym/resolve/main/data/arvo';

  /** Where the ARVO tasks' images come from, `{id}` standing for the task's id: a mirror registry of them, say. */
  @Matches(/\{id\}/, { message: 'ARVO_IMAGE_TEMPLATE must hold {id}, where the task id goes (n132/arvo:{id}-vul)' })
  ARVO_IMAGE_TEMPLATE: string = TASK_SOURCE_IMAGES.arvo;

  // The bundled sample tasks (`sample:<n>`). Relative to the working directory, like the other paths: right
  // when started from the repository root (`npm start`, `nx serve`, `node dist/apps/green-agent/main.js`);
  // set it when the agent runs from elsewhere (a deploy image copies samples/ next to the bundle).
  @IsString()
  SAMPLES_DIR: string = './samples';

  // The named task lists an assessment's `task_ids_file` may name (rcabench-1000, rcabench-clean-181,
  // samples). Relative to the working directory, as SAMPLES_DIR; a deploy image copies task-lists/ beside the bundle.
  @IsString()
  TASK_LISTS_DIR: string = './task-lists';

  // The one folder of the operator's own list files that `task_ids_file` may name by path, beside
  // TASK_LISTS_DIR; unset, list files are read from TASK_LISTS_DIR only. A path out of both is refused unread.
  @IsOptional()
  @IsNotEmpty({ message: 'TASK_LIST_FILES_DIR must name a folder, or be left unset' })
  @IsString()
  TASK_LIST_FILES_DIR?: string;

  // What one task archive may unpack to (bytes of all files, entries, bytes of one file); 0 turns a limit off.
  // Real ARVO trees reach a few GiB.
  @IsInt()
  @Min(0)
  ARCHIVE_MAX_BYTES: number = DEFAULT_ARCHIVE_LIMITS.maxBytes;

  @IsInt()
  @Min(0)
  ARCHIVE_MAX_ENTRIES: number = DEFAULT_ARCHIVE_LIMITS.maxEntries;

  @IsInt()
  @Min(0)
  ARCHIVE_MAX_FILE_BYTES: number = DEFAULT_ARCHIVE_LIMITS.maxFileBytes;

  // Unpacked bytes per compressed byte that the archive reader allows; 0 turns the guard off. gzip packs
  // zeros about 1030:1, so a real tree of mostly zeros may need more.
  @IsNumber()
  @Min(0)
  ARCHIVE_MAX_COMPRESSION_RATIO: number = DEFAULT_ARCHIVE_LIMITS.maxCompressionRatio;

  @IsIn(SANDBOX_CHOICES)
  SANDBOX: SandboxChoice = 'auto';

  @IsInt()
  @Min(1)
  COMMAND_TIMEOUT_S: number = DEFAULT_SANDBOX_OPTIONS.commandTimeoutS;

  @IsInt()
  @Min(1)
  TASK_TIMEOUT_S: number = DEFAULT_SANDBOX_OPTIONS.taskTimeoutS;

  /**
   * Whether the solver of an assessment sees opaque task ids (`task:3f9a2c1b`, `/workspace/error.txt`)
   * instead of `arvo:14368`: it cannot look a case up or recall its fix. Plain `Task ID:` requests are
   * never masked.
   */
  // From the variable as written: implicit conversion alone would make `off` true.
  @Transform(({ obj, key }) => onOff((obj as Record<string, unknown>)[key]))
  @IsBoolean({ message: 'MASK_TASK_IDS must be one of on, off, true, false, 1, 0' })
  MASK_TASK_IDS: boolean = true;

  /** Times a task that fails around the solver (an image pull, the engine, an unreachable solver) is run, the first included. */
  @IsInt()
  @Min(1)
  TASK_ATTEMPTS: number = 2;

  @IsInt()
  @Min(1024)
  MAX_OUTPUT_BYTES: number = DEFAULT_SANDBOX_OPTIONS.maxOutputBytes;

  @Matches(/^\d+[kmg]?$/i, { message: 'CONTAINER_MEMORY must be a size such as 4g or 512m' })
  CONTAINER_MEMORY: string = `${DEFAULT_SANDBOX_OPTIONS.memoryBytes / GIB}g`;

  @IsInt()
  @Min(16)
  CONTAINER_PIDS: number = DEFAULT_SANDBOX_OPTIONS.pids;

  /** Unset, half the machine's CPUs, between 1 and 2. */
  @IsNumber()
  @IsPositive()
  CONTAINER_CPUS: number = DEFAULT_SANDBOX_OPTIONS.cpus;

  @Matches(/^\d+[kmg]?$/i, { message: 'CONTAINER_DISK must be a size such as 20g or 512m' })
  CONTAINER_DISK: string = `${DEFAULT_SANDBOX_OPTIONS.diskBytes / GIB}g`;

  /** How many files (inodes) one task may make before it ends: an ARVO tree with its build holds 100k to 300k. */
  @IsInt()
  @Min(1000)
  CONTAINER_FILES: number = DEFAULT_SANDBOX_OPTIONS.diskFiles;

  /** The host's free inodes kept where the tasks write: a share (`5%`) or a count; 0, no floor. Below it no task starts, and running ones end. */
  @Matches(/^\d+(\.\d+)?%?$/, { message: 'HOST_INODES_FLOOR must be a percentage below 100 such as 5%, a count such as 200000, or 0 for none' })
  HOST_INODES_FLOOR: string = '5%';

  /** What the running tasks may write in total (shares of CONTAINER_DISK); unset, the free disk of the engine's data root; 0, no bound. */
  @IsOptional()
  @Matches(/^\d+[kmg]?$/i, { message: 'TASKS_DISK_TOTAL must be a size such as 100g, or 0 for no bound' })
  TASKS_DISK_TOTAL?: string;

  /**
   * What the images the green agent pulled itself may take of the engine's disk; before a pull that would
   * pass it, the least recently used of them that no remaining task needs are removed. 0: no budget.
   */
  @Matches(/^\d+[kmg]?$/i, { message: 'IMAGE_DISK_BUDGET must be a size such as 40g or 512m, or 0 for none' })
  IMAGE_DISK_BUDGET: string = '0';

  /**
   * What the task data the green agent downloaded itself may take of CACHE_DIR; before a download that would
   * pass it, the least recently used of it that no task needs is removed. 0: no budget.
   */
  @Matches(/^\d+[kmg]?$/i, { message: 'TASK_DATA_DISK_BUDGET must be a size such as 20g or 512m, or 0 for none' })
  TASK_DATA_DISK_BUDGET: string = '0';

  /**
   * How many of an assessment's next tasks have their files fetched and their images pulled while the
   * current ones run (within IMAGE_DISK_BUDGET); unset, as many as the assessment runs at once; 0: none.
   */
  @IsOptional()
  @IsInt()
  @Min(0)
  FETCH_AHEAD?: number;

  /** How many of those, the first, have their sandbox started before their turn, at most as many as run at once (unset: that many); 0: none. */
  @IsOptional()
  @IsInt()
  @Min(0)
  PREPARE_AHEAD?: number;

  /** Containers started or removed at once; unset, one per CPU. */
  @IsOptional()
  @IsInt()
  @Min(1)
  SANDBOX_START_CONCURRENCY?: number;

  /** The engine of the task containers: `unix:///path`, `tcp://host:port` or `ssh://user@host`; unset, the local socket. */
  @IsOptional()
  @Matches(/^(unix|tcp|ssh):\/\/\S*$/, { message: 'DOCKER_HOST must be unix:///<socket>, tcp://<host>:<port> or ssh://<user>@<host>' })
  DOCKER_HOST?: string;

  /** TLS to a tcp DOCKER_HOST, with the certificates in DOCKER_CERT_PATH. */
  @IsOptional()
  @Transform(({ obj, key }) => onOff((obj as Record<string, unknown>)[key]))
  @IsBoolean({ message: 'DOCKER_TLS_VERIFY must be one of on, off, true, false, 1, 0' })
  DOCKER_TLS_VERIFY?: boolean;

  /** The folder of ca.pem, cert.pem and key.pem for a TLS engine. */
  @IsOptional()
  @IsString()
  DOCKER_CERT_PATH?: string;

  /** The private key for an ssh DOCKER_HOST; unset, ssh's own (the agent's keys, ~/.ssh). */
  @IsOptional()
  @IsString()
  DOCKER_SSH_IDENTITY?: string;

  /** The known hosts file holding an ssh DOCKER_HOST's host key; unset, ~/.ssh/known_hosts. */
  @IsOptional()
  @IsString()
  DOCKER_SSH_KNOWN_HOSTS?: string;

  /** The ssh agent whose keys reach an ssh DOCKER_HOST. */
  @IsOptional()
  @IsString()
  SSH_AUTH_SOCK?: string;
}

/** `on`/`true`/`1` and `off`/`false`/`0` as booleans; anything else stays as written, for the validation to name. */
function onOff(value: unknown): unknown {
  if (typeof value === 'boolean') return value;
  const word = String(value).trim().toLowerCase();
  if (['on', 'true', '1'].includes(word)) return true;
  if (['off', 'false', '0'].includes(word)) return false;
  return value;
}
