import type { Logger } from '@nestjs/common';
import type { RecordWriter } from '@arvo-rca/run-record';
import { chooseSolverProtocol, isSolverProtocol, SolverDialectChoice, type SessionProtocol } from '../tasks';

/**
 * The dialect a resume speaks: the one its record names, else (a record made before it was kept, or whose
 * solver never answered) as a new assessment finds it: the card's, else the solver's first answer's.
 */
export function resumedProtocol(recorded: unknown, card: unknown): SessionProtocol {
  return isSolverProtocol(recorded) ? { protocol: recorded, source: 'record' } : chooseSolverProtocol(undefined, card);
}

/** A session's dialect, shared by its tasks: one its solver's first answer shows joins the record, so that a resume speaks it again. */
export function sessionDialect(writer: RecordWriter, choice: SessionProtocol, logger: Logger): SolverDialectChoice {
  return new SolverDialectChoice(choice, (protocol) => {
    logger.log(`the solver speaks ${protocol}, as its first answer shows`);
    writer.setSolverProtocol(protocol, choice.source).catch((error: Error) => logger.error(`the record does not say the solver's dialect: ${error.message}`));
  });
}
