import { bootWith, fetchServedCard, isolateAppEnvironment } from '@arvo-rca/agent-app/testing';
import { AppModule } from './app.module';

describe('purple agent app', () => {
  isolateAppEnvironment();

  it('serves its A2A card over HTTP, naming the card URL it was given', async () => {
    const { status, card } = await fetchServedCard(() => AppModule.forRoot(), 'http://purple.example.org:9019');

    expect(status).toBe(200);
    expect(card.name).toBe('arvo-rca purple agent');
    expect(card.supportedInterfaces[0].url).toBe('http://purple.example.org:9019/');
    expect(card.skills[0].id).toBe('root-cause-analysis');
  });

  it('names on its skill the dialects it answers: the reply dialect and terminal-bench-shell-v1, or the callback dialect when it knows its assessor', async () => {
    const plain = await fetchServedCard(() => AppModule.forRoot(), 'http://purple.example.org:9019');
    expect(plain.card.skills[0].tags).toEqual(expect.arrayContaining(['reply', 'terminal-bench-shell-v1']));
    expect(plain.card.skills[0].tags).not.toContain('callback');

    process.env['GREEN_AGENT_URL'] = 'http://green.example.org:9009/';
    const callingBack = await fetchServedCard(() => AppModule.forRoot(), 'http://purple.example.org:9019');
    expect(callingBack.card.skills[0].tags).toEqual(expect.arrayContaining(['callback', 'terminal-bench-shell-v1']));
    expect(callingBack.card.skills[0].tags).not.toContain('reply');
  });

  it('declares that it reads text, and answers in text and data (how its run ended, a terminal-bench message)', async () => {
    const { card } = await fetchServedCard(() => AppModule.forRoot(), 'http://purple.example.org:9019');

    expect(card.defaultInputModes).toEqual(['text/plain']);
    expect(card.defaultOutputModes).toEqual(['text/plain', 'application/json']);
  });

  it('refuses to boot on bad configuration, listing every bad variable', async () => {
    await expect(bootWith(() => AppModule.forRoot(), { MODEL: 'gpt', STEP_LIMIT: '-1', GREEN_AGENT_URL: 'green' })).rejects.toThrow(
      /invalid configuration:(?=[\s\S]*MODEL="gpt")(?=[\s\S]*STEP_LIMIT="-1")(?=[\s\S]*GREEN_AGENT_URL="green")/,
    );
  });
});
