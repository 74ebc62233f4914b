import { IsIn, IsNotEmpty, IsNumber, IsOptional, IsPositive, Matches, Max } from 'class-validator';
import { AppConfig, ByteSize, HttpUrl, NumberFrom, OnOff, Text, WholeNumber } from '@arvo-rca/agent-app';
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

  @HttpUrl()
  PURPLE_AGENT_URL: string = 'http://127.0.0.1:9019/';

  @Text()
  TMP_DIR: string = DEFAULT_SANDBOX_OPTIONS.tmpDir;

  @Text()
  CACHE_DIR: string = './.cache/arvo-rca';

  @Text()
  ARVO_DATA_URL: string = 'https://huggingface.co/datasets/sunblaze-ucb/cybergym/resolve/main/data/arvo';

  /** Where the ARVO tasks' images come from, `{id}` standing for the task's id: a mirror registry of them, say. */
  @Matches(/\{id\}/, { message: 'ARVO_IMAGE_TEMPLATE must hold {id}, where the task id goes (n132/arvo:{id}-vul)' })
  ARVO_IMAGE_TEMPLATE: string = TASK_SOURCE_IMAGES.arvo;

  // The bundled sample tasks (`sample:<n>`). Relative to the working directory, like the other paths: right
  // when started from the repository root (`npm start`, `nx serve`, `node dist/apps/green-agent/main.js`);
  // set it when the agent runs from elsewhere (a deploy image copies samples/ next to the bundle).
  @Text()
  SAMPLES_DIR: string = './samples';

  // The named task lists an assessment's `task_ids_file` may name (rcabench-1000, rcabench-clean-181,
  // samples). Relative to the working directory, as SAMPLES_DIR; a deploy image copies task-lists/ beside the bundle.
  @Text()
  TASK_LISTS_DIR: string = './task-lists';

  // The one folder of the operator's own list files that `task_ids_file` may name by path, beside
  // TASK_LISTS_DIR; unset, list files are read from TASK_LISTS_DIR only. A path out of both is refused unread.
  @IsOptional()
  @IsNotEmpty({ message: 'TASK_LIST_FILES_DIR must name a folder, or be left unset' })
  @Text()
  TASK_LIST_FILES_DIR?: string;

  // What one task archive may unpack to (bytes of all files, entries, bytes of one file); 0 turns a limit off.
  // Real ARVO trees reach a few GiB.
  @WholeNumber(0)
  ARCHIVE_MAX_BYTES: number = DEFAULT_ARCHIVE_LIMITS.maxBytes;

  @WholeNumber(0)
  ARCHIVE_MAX_ENTRIES: number = DEFAULT_ARCHIVE_LIMITS.maxEntries;

  @WholeNumber(0)
  ARCHIVE_MAX_FILE_BYTES: number = DEFAULT_ARCHIVE_LIMITS.maxFileBytes;

  // Unpacked bytes per compressed byte that the archive reader allows; 0 turns the guard off. gzip packs
  // zeros about 1030:1, so a real tree of mostly zeros may need more.
  @NumberFrom(0)
  ARCHIVE_MAX_COMPRESSION_RATIO: number = DEFAULT_ARCHIVE_LIMITS.maxCompressionRatio;

  @IsIn(SANDBOX_CHOICES)
  SANDBOX: SandboxChoice = 'auto';

  @WholeNumber(1)
  COMMAND_TIMEOUT_S: number = DEFAULT_SANDBOX_OPTIONS.commandTimeoutS;

  @WholeNumber(1)
  TASK_TIMEOUT_S: number = DEFAULT_SANDBOX_OPTIONS.taskTimeoutS;

  /**
   * Whether the solver of an assessment sees opaque task ids (`task:3f9a2c1b`, `/workspace/error.txt`)
   * instead of `arvo:14368`: it cannot look a case up or recall its fix. Plain `Task ID:` requests are
   * never masked.
   */
  @OnOff()
  MASK_TASK_IDS: boolean = true;

  /** Times a task that fails around the solver (an image pull, the engine, an unreachable solver) is run, the first included. */
  @WholeNumber(1)
  TASK_ATTEMPTS: number = 2;

  @WholeNumber(1024)
  MAX_OUTPUT_BYTES: number = DEFAULT_SANDBOX_OPTIONS.maxOutputBytes;

  @ByteSize('4g or 512m')
  CONTAINER_MEMORY: string = `${DEFAULT_SANDBOX_OPTIONS.memoryBytes / GIB}g`;

  @WholeNumber(16)
  CONTAINER_PIDS: number = DEFAULT_SANDBOX_OPTIONS.pids;

  /** Unset, half the machine's CPUs, between 1 and 2. */
  @IsNumber()
  @IsPositive()
  CONTAINER_CPUS: number = DEFAULT_SANDBOX_OPTIONS.cpus;

  /** A task container's CPU weight beside the engine and the agents (Docker's --cpu-shares, 2 to 262144; the engine's default is 1024). */
  @WholeNumber(2)
  @Max(262_144)
  CONTAINER_CPU_SHARES: number = DEFAULT_SANDBOX_OPTIONS.cpuShares;

  @ByteSize('20g or 512m')
  CONTAINER_DISK: string = `${DEFAULT_SANDBOX_OPTIONS.diskBytes / GIB}g`;

  /** How many files (inodes) one task may make before it ends: an ARVO tree with its build holds 100k to 300k. */
  @WholeNumber(1000)
  CONTAINER_FILES: number = DEFAULT_SANDBOX_OPTIONS.diskFiles;

  /** The host's free inodes kept where the tasks write: a share (`5%`) or a count; 0, no floor. Below it no task starts, and running ones end. */
  @Matches(/^\d+(\.\d+)?%?$/, { message: 'HOST_INODES_FLOOR must be a percentage below 100 such as 5%, a count such as 200000, or 0 for none' })
  HOST_INODES_FLOOR: string = '5%';

  /** What the running tasks may write in total (shares of CONTAINER_DISK); unset, the free disk of the engine's data root; 0, no bound. */
  @ByteSize('100g, or 0 for no bound', 'optional')
  TASKS_DISK_TOTAL?: string;

  /**
   * What the images the green agent pulled itself may take of the engine's disk; before a pull that would
   * pass it, the least recently used of them that no remaining task needs are removed. 0: no budget.
   */
  @ByteSize('40g or 512m, or 0 for none')
  IMAGE_DISK_BUDGET: string = '0';

  /**
   * What the task data the green agent downloaded itself may take of CACHE_DIR; before a download that would
   * pass it, the least recently used of it that no task needs is removed. 0: no budget.
   */
  @ByteSize('20g or 512m, or 0 for none')
  TASK_DATA_DISK_BUDGET: string = '0';

  /**
   * How many of an assessment's next tasks have their files fetched and their images pulled while the
   * current ones run (within IMAGE_DISK_BUDGET); unset, as many as the assessment runs at once; 0: none.
   */
  @WholeNumber(0, 'optional')
  FETCH_AHEAD?: number;

  /** How many of those, the first, have their sandbox started before their turn, at most as many as run at once (unset: that many); 0: none. */
  @WholeNumber(0, 'optional')
  PREPARE_AHEAD?: number;

  /** Containers started or removed at once; unset, one per CPU. */
  @WholeNumber(1, 'optional')
  SANDBOX_START_CONCURRENCY?: number;

  /** The engine of the task containers: `unix:///path`, `tcp://host:port` or `ssh://user@host`; unset, the local socket. */
  @IsOptional()
  @Matches(/^(unix|tcp|ssh):\/\/\S*$/, { message: 'DOCKER_HOST must be unix:///<socket>, tcp://<host>:<port> or ssh://<user>@<host>' })
  DOCKER_HOST?: string;

  /** TLS to a tcp DOCKER_HOST, with the certificates in DOCKER_CERT_PATH. */
  @OnOff('optional')
  DOCKER_TLS_VERIFY?: boolean;

  /** The folder of ca.pem, cert.pem and key.pem for a TLS engine. */
  @Text('optional')
  DOCKER_CERT_PATH?: string;

  /** The private key for an ssh DOCKER_HOST; unset, ssh's own (the agent's keys, ~/.ssh). */
  @Text('optional')
  DOCKER_SSH_IDENTITY?: string;

  /** The known hosts file holding an ssh DOCKER_HOST's host key; unset, ~/.ssh/known_hosts. */
  @Text('optional')
  DOCKER_SSH_KNOWN_HOSTS?: string;

  /** The ssh agent whose keys reach an ssh DOCKER_HOST. */
  @Text('optional')
  SSH_AUTH_SOCK?: string;
}
