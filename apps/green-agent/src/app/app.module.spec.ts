import { bootWith, fetchServedCard, isolateAppEnvironment } from '@arvo-rca/agent-app/testing';
import { AppModule } from './app.module';

describe('green agent app', () => {
  isolateAppEnvironment();

  it('serves its A2A card over HTTP, naming the card URL it was given', async () => {
    const { status, card } = await fetchServedCard(() => AppModule.forRoot(), 'http://green.example.org:9009');

    expect(status).toBe(200);
    expect(card.name).toBe('arvo-rca green agent');
    expect(card.supportedInterfaces[0].url).toBe('http://green.example.org:9009/');
    expect(card.skills[0].examples).toContain('Task ID: arvo:14368');
  });

  it('declares that it reads a request as text or data, and answers in text and data (progress, Result, record)', async () => {
    const { card } = await fetchServedCard(() => AppModule.forRoot(), 'http://green.example.org:9009');

    expect(card.defaultInputModes).toEqual(['text/plain', 'application/json']);
    expect(card.defaultOutputModes).toEqual(['text/plain', 'application/json']);
  });

  it('refuses to boot on bad configuration, listing every bad variable', async () => {
    await expect(bootWith(() => AppModule.forRoot(), { SANDBOX: 'vm', COMMAND_TIMEOUT_S: '-1', CONTAINER_MEMORY: 'lots' })).rejects.toThrow(
      /invalid configuration:(?=[\s\S]*SANDBOX="vm")(?=[\s\S]*COMMAND_TIMEOUT_S="-1")(?=[\s\S]*CONTAINER_MEMORY="lots")/,
    );
  });
});
