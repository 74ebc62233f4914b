// The `config` of an AgentBeats assessment request as we read it: our keys at its top level, or nested
// under `assessment_config` (the scenario's own config) with the shard keys at the top level, where a
// leaderboard's CI writes them flat (the gateway passes `config` on unchanged; it adds no keys).
import { ASSESSMENT_CONFIG_KEYS, type AssessmentConfigKey } from '@arvo-rca/a2a-protocol';
import { isRecord } from '@arvo-rca/common';

const NESTED = 'assessment_config';

/** The config's values by key, where each was read (`config.num_tasks`), and the keys left unread. */
export interface ConfigReading {
  values: Partial<Record<AssessmentConfigKey, unknown>>;
  /** Where a key is read from, for messages: `config.num_tasks` or `config.assessment_config.num_tasks`. */
  path: (key: AssessmentConfigKey) => string;
  /** Keys present but not used, as written under `config` (`foo`, `assessment_config.bar`). */
  ignored: string[];
}

/**
 * Reads the task config from `config`, or from `config.assessment_config` when the top level names no
 * `task_ids` (nor `task_ids_file`) and that is an object. A key at the top level wins over the same key
 * nested (a leaderboard's CI writes `shard_index`, `num_shards` and `num_instances` there); the nested one
 * is then named as ignored.
 */
export function readConfig(config: Record<string, unknown>): ConfigReading {
  const nested = !('task_ids' in config || 'task_ids_file' in config) && isRecord(config[NESTED]) ? config[NESTED] : undefined;
  const fromNested = (key: AssessmentConfigKey): boolean => nested !== undefined && !(key in config);
  const values: Partial<Record<AssessmentConfigKey, unknown>> = {};
  for (const key of ASSESSMENT_CONFIG_KEYS) {
    const from = fromNested(key) ? nested : config;
    if (from && key in from) values[key] = from[key];
  }
  const path = (key: AssessmentConfigKey): string => (fromNested(key) ? `config.${NESTED}.${key}` : `config.${key}`);
  const isUsed = (key: string): boolean => (ASSESSMENT_CONFIG_KEYS as readonly string[]).includes(key) || (key === NESTED && nested !== undefined);
  const ignored = [
    ...Object.keys(config).filter((key) => !isUsed(key)),
    ...Object.keys(nested ?? {})
      .filter((key) => !(ASSESSMENT_CONFIG_KEYS as readonly string[]).includes(key) || key in config)
      .map((key) => `${NESTED}.${key}`),
  ];
  return { values, path, ignored };
}
