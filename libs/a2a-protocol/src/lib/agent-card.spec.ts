import { buildAgentCard, withTrailingSlash } from './agent-card';

describe('buildAgentCard', () => {
  const card = buildAgentCard({
    name: 'test agent',
    description: 'does things',
    version: '1.2.3',
    url: 'http://127.0.0.1:9009',
    skills: [{ id: 'rca', name: 'RCA', description: 'finds root causes', tags: ['c'], examples: [] }],
  });

  it('declares the JSON-RPC endpoint for A2A 1.0 and 0.3 at the same URL, with a trailing slash', () => {
    expect(card.supportedInterfaces.map((i) => [i.protocolVersion, i.protocolBinding, i.url])).toEqual([
      ['1.0', 'JSONRPC', 'http://127.0.0.1:9009/'],
      ['0.3', 'JSONRPC', 'http://127.0.0.1:9009/'],
    ]);
  });

  it('announces streaming and the skills', () => {
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.skills.map((skill) => skill.id)).toEqual(['rca']);
  });

  it('leaves a URL that already ends in a slash alone', () => {
    expect(withTrailingSlash('http://a/b/')).toBe('http://a/b/');
  });
});
