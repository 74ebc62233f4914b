import type { Logger } from '@nestjs/common';
import { isDialectName } from '@arvo-rca/a2a-protocol';
import type { RecordWriter } from '@arvo-rca/run-record';
import { chooseDialect, SolverDialectChoice, type KnownDialect } from '../../tasks';

/**
 * The dialect a resume speaks: the one its record names, else (a record made before it was kept, or whose
 * solver never answered) as a new assessment finds it: the card's, else the solver's first answer's.
 */
export function resumedDialect(recorded: unknown, card: unknown): KnownDialect {
  return isDialectName(recorded) ? { dialect: recorded, source: 'record' } : chooseDialect(undefined, card);
}

/** A session's dialect, shared by its tasks: one its solver's first answer shows joins the record, so that a resume speaks it again. */
export function sessionDialect(writer: RecordWriter, choice: KnownDialect, logger: Logger): SolverDialectChoice {
  return new SolverDialectChoice(choice, (dialect) => {
    logger.log(`the solver speaks ${dialect}, as its first answer shows`);
    // The record keeps it under the wire's word, `solver_protocol`.
    writer.setSolverProtocol(dialect, choice.source).catch((error: Error) => logger.error(`the record does not say the solver's dialect: ${error.message}`));
  });
}
