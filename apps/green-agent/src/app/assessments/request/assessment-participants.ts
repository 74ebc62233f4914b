// The solver an AgentBeats assessment request names. The platform's role name is `agent` (the
// reference assessors terminal-bench-green and cybergym-green require it); ours, `purple_agent`, is
// read beside it. One of the two, never both.
import { isURL } from 'class-validator';
import { isRecord } from '@arvo-rca/common';

/** The solver's roles, the platform's first. */
export const SOLVER_ROLES = ['agent', 'purple_agent'] as const;

/** The solver's URL, or the problems with `participants` (empty when it is fine). */
export interface ParticipantsReading {
  solverUrl?: string;
  problems: string[];
}

export function readParticipants(participants: unknown): ParticipantsReading {
  const problem = (text: string): ParticipantsReading => ({ problems: [text] });
  if (!isRecord(participants)) return problem('participants must be an object naming the solver as agent (or purple_agent)');
  const named = SOLVER_ROLES.filter((role) => role in participants);
  if (named.length === 0) return problem('participants must name the solver as agent (or purple_agent)');
  if (named.length > 1) return problem('participants names the solver twice, as agent and purple_agent: name it once');
  const [role] = named;
  const url = participants[role];
  if (typeof url !== 'string' || !isURL(url, { require_tld: false, require_protocol: true }))
    return problem(`participants.${role} must be the URL of the solver (the purple agent)`);
  return { solverUrl: url, problems: [] };
}
