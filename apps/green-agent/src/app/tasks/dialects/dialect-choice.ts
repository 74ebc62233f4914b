import type { DialectName } from '@arvo-rca/a2a-protocol';
import type { DialectSource } from './declared-dialect';

/** Why a session speaks its dialect: as its request, its solver's card or first answer says, or (a resume) as its record says. */
export type DialectOrigin = DialectSource | 'record';

/** A session's dialect as known before its first task: a resume's is the one its record names. */
export interface KnownDialect {
  dialect: DialectName | undefined;
  source: DialectOrigin;
}

/** How a task's log says why the solver is spoken to in its dialect. */
const SOURCE_WORDS: Record<DialectOrigin, string> = {
  config: "from the request's config",
  card: 'from its card',
  'first-answer': 'from its first answer',
  record: 'as its record says',
};

/** The log line that names the dialect a task speaks, and why. */
export function describeDialect(dialect: DialectName, source: DialectOrigin): string {
  return `solver dialect: ${dialect} (${SOURCE_WORDS[source]})`;
}

/**
 * The dialect the tasks of one assessment (or one plain task) speak to their solver, shared by them: known
 * up front (config, card, or the record a resume goes on with), or found by the first task whose solver
 * answers, and then spoken by every task handed over after it. `onFound` hears the first find only.
 */
export class SolverDialectChoice {
  private known: DialectName | undefined;
  private readonly origin: DialectOrigin;

  constructor(
    choice: KnownDialect,
    private readonly onFound?: (dialect: DialectName) => void,
  ) {
    this.known = choice.dialect;
    this.origin = choice.source;
  }

  /** The dialect to speak; undefined while it is to be found from the solver's first answer. */
  get dialect(): DialectName | undefined {
    return this.known;
  }

  get source(): DialectOrigin {
    return this.origin;
  }

  /** A task's solver showed its dialect by its first answer; the first find is kept. */
  found(dialect: DialectName): void {
    if (this.known) return;
    this.known = dialect;
    this.onFound?.(dialect);
  }
}
