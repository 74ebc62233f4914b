import { buildAgentCard } from '../agent-card';
import { toLegacyAgentCard } from '../server/legacy-agent-card';
import { readPeerCard, solverModelExtension } from './peer-card';

const card = (extensions = [solverModelExtension('gpt-test')]) =>
  buildAgentCard({ name: 'solver', description: 'd', version: '1.2.3', url: 'http://127.0.0.1:1', skills: [], extensions });

describe("a peer's card", () => {
  it("names the solver's model in an extension of its capabilities, in both card versions", () => {
    expect(readPeerCard(JSON.parse(JSON.stringify(card())))).toEqual({ name: 'solver', version: '1.2.3', model: 'gpt-test' });
    expect(readPeerCard(JSON.parse(JSON.stringify(toLegacyAgentCard(card()))))).toEqual({ name: 'solver', version: '1.2.3', model: 'gpt-test' });
  });

  it('gives no model for a card that declares none, and says what a card lacks', () => {
    expect(readPeerCard(card([]))).toEqual({ name: 'solver', version: '1.2.3', model: null });
    expect(readPeerCard({ capabilities: { extensions: [{ uri: 'urn:other', params: { model: 'x' } }] } })).toEqual({
      name: '(no name)',
      version: '(no version)',
      model: null,
    });
  });
});
