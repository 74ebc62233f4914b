import { parseAgentFlags } from './agent-flags';

describe('parseAgentFlags', () => {
  it('maps the AgentBeats flags onto configuration variables', () => {
    expect(parseAgentFlags(['--host', '0.0.0.0', '--port=9100', '--card-url', 'http://green:9100/'])).toEqual({
      HOST: '0.0.0.0',
      PORT: '9100',
      CARD_URL: 'http://green:9100/',
    });
  });

  it('accepts no flags at all', () => {
    expect(parseAgentFlags([])).toEqual({});
  });

  it('names an unknown argument and shows the usage', () => {
    expect(() => parseAgentFlags(['--hots', 'x'])).toThrow(/unknown argument '--hots'\nusage:/);
  });

  it('refuses a flag without its value', () => {
    expect(() => parseAgentFlags(['--port'])).toThrow(/--port needs a value/);
    expect(() => parseAgentFlags(['--port='])).toThrow(/--port needs a value/);
  });
});
