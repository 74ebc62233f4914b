import type { AgentCard, AgentExtension, AgentSkill } from '@a2a-js/sdk';

// The product's version, as agents announce it in their cards.
export const PRODUCT_VERSION = '0.1.0';

export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

/** The media types of the parts agents exchange: text parts, and data parts (JSON). */
export type PartMediaType = 'text/plain' | 'application/json';

export interface AgentCardSpec {
  name: string;
  description: string;
  version: string;
  /** Where peers reach the JSON-RPC endpoint: the `--card-url` flag, or http://host:port/. */
  url: string;
  skills: Pick<AgentSkill, 'id' | 'name' | 'description' | 'tags' | 'examples'>[];
  /** Extensions the agent declares (a solver's model: `solverModelExtension`). */
  extensions?: AgentExtension[];
  /** The media types of the parts the agent reads in a request, and of the parts it sends back (in messages, statuses and artifacts); text only unless given. */
  inputModes?: PartMediaType[];
  outputModes?: PartMediaType[];
}

/**
 * The agent's card, in the A2A v1.0 shape. The same JSON-RPC endpoint serves v1.0 and, through the
 * SDK's compatibility layer, v0.3 peers (AgentBeats and the Python original), so both are declared.
 */
export function buildAgentCard(spec: AgentCardSpec): AgentCard {
  const url = withTrailingSlash(spec.url);
  return {
    name: spec.name,
    description: spec.description,
    version: spec.version,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
      { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3', tenant: '' },
    ],
    provider: undefined,
    capabilities: { streaming: true, pushNotifications: false, extensions: spec.extensions ?? [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: [...(spec.inputModes ?? ['text/plain'])],
    defaultOutputModes: [...(spec.outputModes ?? ['text/plain'])],
    skills: spec.skills.map((skill) => ({ ...skill, inputModes: [], outputModes: [], securityRequirements: [] })),
    signatures: [],
  };
}

export function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/** The name under which cards declare the shared-secret scheme (`A2A_TOKEN`). */
const BEARER_SCHEME = 'bearer';

/** The card of an agent whose JSON-RPC endpoint wants `Authorization: Bearer <A2A_TOKEN>`. */
export function withBearerAuth(card: AgentCard): AgentCard {
  return {
    ...card,
    securitySchemes: {
      ...card.securitySchemes,
      [BEARER_SCHEME]: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: { scheme: 'Bearer', bearerFormat: '', description: 'The shared secret A2A_TOKEN of this deployment.' },
        },
      },
    },
    securityRequirements: [...card.securityRequirements, { schemes: { [BEARER_SCHEME]: { list: [] } } }],
  };
}
