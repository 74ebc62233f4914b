// The run record's files as JSON: `assessment.json` (AssessmentFile) and a task's `sources.json`
// (SourcesFile). Where each file is: record-layout.ts.
import type { Shard, TaskDraw } from '@arvo-rca/results';

export const ASSESSMENT_FORMAT = 'arvo-rca-assessment-1';
export const SOURCES_FORMAT = 'arvo-rca-sources-1';

/** An agent as its card names it. */
interface AgentIdentity {
  name: string;
  version: string;
}

/** The solver: its card, the model it declares (null when it declares none), and where it was reached (not part of its identity). */
export interface SolverIdentity extends AgentIdentity {
  model: string | null;
  url: string;
}

/** One run of the assessment on this record: the first, then each resume. */
interface RecordSession {
  started_at: string;
  /** Set when the session ended by itself; a killed session's end is its last recorded task's. */
  ended_at: string | null;
  /** Tasks this session set out to run. */
  tasks: number;
  retry_failed: boolean;
}

export interface AssessmentFile {
  format: typeof ASSESSMENT_FORMAT;
  id: string;
  started_at: string;
  /** The task ids of this record, in the order requested (this shard's part of the list). */
  tasks: string[];
  /** How the tasks were drawn from a longer list: a resume runs `tasks` and draws nothing. Absent when the request named them all, and in records made before it was kept. */
  draw?: TaskDraw;
  concurrency: number;
  shard: Shard;
  assessor: AgentIdentity;
  solver: SolverIdentity;
  /**
   * The dialect the solver was spoken to in (`reply`, `terminal-bench-shell-v1`, `callback`); a resume speaks it again.
   * Absent in records made before it was kept, and while a solver's first answer is still to show it.
   */
  solver_protocol?: string;
  /** Why: `config` (the request named it), `card` (the solver's card did) or `first-answer` (the solver's first answer showed it). Absent in records made before it was kept. */
  solver_protocol_source?: string;
  /** The assessor's settings that can change a score, and their hash: a resume under other settings is refused. */
  settings: ScoringSettings;
  settings_hash: string;
  sessions: RecordSession[];
}

export type ScoringSettings = Record<string, string | number>;

/**
 * The sandbox a run's tasks ran in, as `settings.SANDBOX` records it: `docker`, `local` (bubblewrap) or
 * `local-unsafe` (plain processes). Records made before it was recorded hold the choice instead, and
 * `auto` there names no sandbox: such a record says `unknown`.
 */
type RecordedSandbox = 'docker' | 'local' | 'local-unsafe' | 'unknown';

export function recordedSandbox(settings: ScoringSettings): RecordedSandbox {
  const sandbox = settings['SANDBOX'];
  return sandbox === 'docker' || sandbox === 'local' || sandbox === 'local-unsafe' ? sandbox : 'unknown';
}

/** Source lines around the fix and the solver's answer, read from the vulnerable tree before it was removed. */
export interface SourcesFile {
  format: typeof SOURCES_FORMAT;
  files: SourceExcerpt[];
}

export interface SourceExcerpt {
  /** The file's path in the source tree. */
  path: string;
  /** Line number of `lines[0]`. */
  start: number;
  lines: string[];
  /** Lines the fix changed (before the fix), and lines the solver named, as 1-based inclusive spans. */
  fix: Span[];
  predicted: RankedSpan[];
}

export interface Span {
  start: number;
  end: number;
}

/** A span the solver named, with its rank in loc.json (1 is its first guess). */
export interface RankedSpan extends Span {
  rank: number;
}
