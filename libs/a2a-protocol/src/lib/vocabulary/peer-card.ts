// What an agent's card says of who it is: its name and version, and for a solver, the model it runs, in
// an extension of its card's capabilities:
//   "capabilities": {"extensions": [{"uri": "urn:arvo-rca:solver-model:1", "params": {"model": "claude-..."}}]}
// A solver that declares no model is known by its name and version alone.
import type { AgentExtension } from '@a2a-js/sdk';
import { isRecord } from '@arvo-rca/common';

const SOLVER_MODEL_EXTENSION = 'urn:arvo-rca:solver-model:1';

export interface PeerCard {
  name: string;
  version: string;
  /** The model the solver declares in its card; null when it declares none. */
  model: string | null;
}

/** The card extension by which a solver declares its model. */
export function solverModelExtension(model: string): AgentExtension {
  return { uri: SOLVER_MODEL_EXTENSION, description: 'The model this solver runs.', required: false, params: { model } };
}

/** Who a card says its agent is; text where a field is missing says so, rather than failing. */
export function readPeerCard(card: unknown): PeerCard {
  const value = isRecord(card) ? card : {};
  const capabilities = isRecord(value['capabilities']) ? value['capabilities'] : {};
  const extensions = Array.isArray(capabilities['extensions']) ? capabilities['extensions'] : [];
  const declared = extensions.find((extension) => isRecord(extension) && extension['uri'] === SOLVER_MODEL_EXTENSION);
  const params = isRecord(declared) && isRecord(declared['params']) ? declared['params'] : {};
  return {
    name: typeof value['name'] === 'string' ? value['name'] : '(no name)',
    version: typeof value['version'] === 'string' ? value['version'] : '(no version)',
    model: typeof params['model'] === 'string' && params['model'] !== '' ? params['model'] : null,
  };
}
