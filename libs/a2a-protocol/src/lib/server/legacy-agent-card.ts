import type { AgentCard, AgentSkill, SecurityRequirement, SecurityScheme } from '@a2a-js/sdk';

// The A2A v0.3 card, as AgentBeats tooling and the Python original read it. The SDK translates cards
// to this shape only inside its Express bundle, so the translation lives here, limited to what agent
// cards of this project carry (HTTP and API-key auth, no OAuth).

export interface LegacySecurityScheme {
  type: 'http' | 'apiKey';
  scheme?: string;
  bearerFormat?: string;
  in?: string;
  name?: string;
  description?: string;
}

export interface LegacyAgentSkill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples?: string[];
  inputModes?: string[];
  outputModes?: string[];
  security?: Record<string, string[]>[];
}

export interface LegacyAgentCard {
  name: string;
  description: string;
  version: string;
  url: string;
  preferredTransport: string;
  protocolVersion: string;
  capabilities: {
    streaming?: boolean;
    pushNotifications?: boolean;
    extensions?: { uri: string; description?: string; required?: boolean; params?: Record<string, unknown> }[];
  };
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: LegacyAgentSkill[];
  additionalInterfaces?: { url: string; transport: string }[];
  provider?: { url: string; organization: string };
  documentationUrl?: string;
  iconUrl?: string;
  supportsAuthenticatedExtendedCard?: boolean;
  securitySchemes?: Record<string, LegacySecurityScheme>;
  security?: Record<string, string[]>[];
  /** The v1.0 interfaces, so that a v1.0 client reading this card without a version header finds them. */
  supportedInterfaces?: AgentCard['supportedInterfaces'];
}

/** A v1.0 card in the v0.3 shape: its v0.3 interfaces only, the first one as the card's URL. */
export function toLegacyAgentCard(card: AgentCard, options: { embedV1Interfaces?: boolean } = {}): LegacyAgentCard {
  const interfaces = card.supportedInterfaces.filter((i) => !i.protocolVersion || isLegacyVersion(i.protocolVersion));
  const [primary, ...additional] = interfaces;
  if (!primary) throw new Error(`agent card "${card.name}" declares no A2A 0.3 interface`);
  const legacy: LegacyAgentCard = {
    name: card.name,
    description: card.description,
    version: card.version,
    url: primary.url,
    preferredTransport: primary.protocolBinding,
    protocolVersion: primary.protocolVersion || '0.3',
    capabilities: { streaming: card.capabilities?.streaming, pushNotifications: card.capabilities?.pushNotifications },
    defaultInputModes: [...card.defaultInputModes],
    defaultOutputModes: [...card.defaultOutputModes],
    skills: card.skills.map(toLegacySkill),
  };
  if (additional.length > 0) legacy.additionalInterfaces = additional.map((i) => ({ url: i.url, transport: i.protocolBinding }));
  if (card.provider) legacy.provider = { url: card.provider.url, organization: card.provider.organization };
  if (card.documentationUrl) legacy.documentationUrl = card.documentationUrl;
  if (card.iconUrl) legacy.iconUrl = card.iconUrl;
  const extensions = card.capabilities?.extensions ?? [];
  if (extensions.length > 0)
    legacy.capabilities.extensions = extensions.map(({ uri, description, required, params }) => ({
      uri,
      description,
      required,
      ...(params ? { params } : {}),
    }));
  if (card.capabilities?.extendedAgentCard !== undefined) legacy.supportsAuthenticatedExtendedCard = card.capabilities.extendedAgentCard;
  const schemes = Object.entries(card.securitySchemes ?? {});
  if (schemes.length > 0) legacy.securitySchemes = Object.fromEntries(schemes.map(([name, scheme]) => [name, toLegacyScheme(name, scheme)]));
  if (card.securityRequirements?.length) legacy.security = card.securityRequirements.map(toLegacyRequirement);
  if (options.embedV1Interfaces) legacy.supportedInterfaces = structuredClone(card.supportedInterfaces);
  return legacy;
}

/** A version in [0.3, 1.0), the range the compat layer serves; an absent version header means 0.3. */
export function isLegacyVersion(version: string | undefined): boolean {
  if (!version?.trim()) return true;
  const [major, minor = 0] = version.trim().split('.').map(Number);
  return major === 0 && minor >= 3;
}

function toLegacySkill(skill: AgentSkill): LegacyAgentSkill {
  const legacy: LegacyAgentSkill = { id: skill.id, name: skill.name, description: skill.description, tags: [...skill.tags] };
  if (skill.examples?.length) legacy.examples = [...skill.examples];
  if (skill.inputModes?.length) legacy.inputModes = [...skill.inputModes];
  if (skill.outputModes?.length) legacy.outputModes = [...skill.outputModes];
  if (skill.securityRequirements?.length) legacy.security = skill.securityRequirements.map(toLegacyRequirement);
  return legacy;
}

function toLegacyScheme(name: string, scheme: SecurityScheme): LegacySecurityScheme {
  const inner = scheme.scheme;
  if (inner?.$case === 'httpAuthSecurityScheme') {
    const { scheme: httpScheme, bearerFormat, description } = inner.value;
    return { type: 'http', scheme: httpScheme, ...(bearerFormat ? { bearerFormat } : {}), ...(description ? { description } : {}) };
  }
  if (inner?.$case === 'apiKeySecurityScheme') {
    const { location, name: keyName, description } = inner.value;
    return { type: 'apiKey', in: location, name: keyName, ...(description ? { description } : {}) };
  }
  throw new Error(`security scheme "${name}" (${inner?.$case ?? 'empty'}) has no A2A 0.3 translation here`);
}

function toLegacyRequirement(requirement: SecurityRequirement): Record<string, string[]> {
  return Object.fromEntries(Object.entries(requirement.schemes).map(([name, scopes]) => [name, [...(scopes?.list ?? [])]]));
}
