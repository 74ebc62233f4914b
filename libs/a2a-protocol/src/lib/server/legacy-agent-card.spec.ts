import { parseLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { DefaultRequestHandler, InMemoryTaskStore, ServerCallContext } from '@a2a-js/sdk/server';
import type { AgentCard } from '@a2a-js/sdk';
import { buildAgentCard, withBearerAuth } from '../agent-card';
import { EchoExecutor } from '../testing/echo-executor.testing';
import { isLegacyVersion, toLegacyAgentCard } from './legacy-agent-card';

const card = withBearerAuth({
  ...buildAgentCard({
    name: 'green',
    description: 'assesses',
    version: '1.2.3',
    url: 'http://green:9009',
    skills: [{ id: 'rca', name: 'RCA', description: 'scores', tags: ['c'], examples: ['Task ID: arvo:1'] }],
  }),
  documentationUrl: 'https://example.org/docs',
});

// The SDK's own translation, reached through the one public path that applies it: the v0.3
// JSON-RPC method that returns the extended card.
async function sdkTranslation(of: AgentCard): Promise<unknown> {
  const extended = { ...of, capabilities: { ...of.capabilities, streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: true } };
  const handler = new DefaultRequestHandler(extended, new InMemoryTaskStore(), new EchoExecutor(), undefined, undefined, undefined, async () => extended);
  const reply = await new LegacyJsonRpcTransportHandler(handler).handle(
    { jsonrpc: '2.0', id: 1, method: 'agent/getAuthenticatedExtendedCard' },
    new ServerCallContext(),
  );
  return (reply as { result: unknown }).result;
}

describe('toLegacyAgentCard', () => {
  it('translates a card exactly as the SDK does', async () => {
    const extended = { ...card, capabilities: { ...card.capabilities, streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: true } };

    expect(JSON.parse(JSON.stringify(toLegacyAgentCard(extended)))).toEqual(await sdkTranslation(card));
  });

  it('names the v0.3 interface as the card URL and keeps the v1.0 interfaces on request', () => {
    const legacy = toLegacyAgentCard(card, { embedV1Interfaces: true });

    expect(legacy).toMatchObject({
      url: 'http://green:9009/',
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3',
      documentationUrl: 'https://example.org/docs',
    });
    expect(legacy.additionalInterfaces).toBeUndefined();
    expect(legacy.supportedInterfaces).toEqual(card.supportedInterfaces);
  });

  it('is read back by the SDK client into the card it came from', () => {
    const parsed = parseLegacyAgentCard(JSON.parse(JSON.stringify(toLegacyAgentCard(card))));

    expect(parsed.name).toBe('green');
    expect(parsed.supportedInterfaces).toEqual([expect.objectContaining({ url: 'http://green:9009/', protocolBinding: 'JSONRPC', protocolVersion: '0.3' })]);
    expect(parsed.securitySchemes['bearer']?.scheme).toMatchObject({ $case: 'httpAuthSecurityScheme', value: { scheme: 'Bearer' } });
    expect(parsed.skills[0].examples).toEqual(['Task ID: arvo:1']);
  });

  it('refuses a card without a v0.3 interface, naming the card', () => {
    const v1Only = { ...card, supportedInterfaces: card.supportedInterfaces.filter((i) => i.protocolVersion === '1.0') };

    expect(() => toLegacyAgentCard(v1Only)).toThrow('agent card "green" declares no A2A 0.3 interface');
  });
});

describe('isLegacyVersion', () => {
  it('treats an absent header and 0.3.x as v0.3, and 1.0 or garbage as not', () => {
    expect([undefined, '', '0.3', '0.3.0', ' 0.3 '].map(isLegacyVersion)).toEqual([true, true, true, true, true]);
    expect(['1.0', '1', '0.2', 'latest'].map(isLegacyVersion)).toEqual([false, false, false, false]);
  });
});
