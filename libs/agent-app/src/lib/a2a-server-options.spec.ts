import { Module, type DynamicModule } from '@nestjs/common';
import { A2aModule, buildAgentCard, type A2aModuleOptions } from '@arvo-rca/a2a-protocol';
import { EchoExecutor, postRaw, sendMessageBody as sendBody, serveModule as serve } from '@arvo-rca/a2a-protocol/testing';
import { a2aServerOptions } from './a2a-server-options';
import { AppConfig } from './app-config';
import { AppConfigModule } from './app-config.module';

const card: A2aModuleOptions['card'] = {
  useFactory: () => buildAgentCard({ name: 'configured', description: 'd', version: '0', url: 'http://127.0.0.1:1/', skills: [] }),
};

// An agent app's A2A surface as both apps mount it: the server's options built from the configuration.
function configuredApp(config: Partial<AppConfig>): DynamicModule {
  @Module({})
  class ConfiguredApp {}
  return {
    module: ConfiguredApp,
    imports: [
      AppConfigModule.of(Object.assign(new AppConfig(), config)),
      A2aModule.forRoot({ card, executor: EchoExecutor, server: { inject: [AppConfig], useFactory: a2aServerOptions } }),
    ],
  };
}

const post = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(sendBody('hi')) });

describe('the A2A server of an agent app', () => {
  it('reads A2A_TOKEN from the configuration', async () => {
    const { app, url } = await serve(configuredApp({ A2A_TOKEN: 'from-config' }));
    try {
      expect((await post(url)).status).toBe(401);
      expect((await post(url, { authorization: 'Bearer from-config' })).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('takes A2A_MAX_BODY_BYTES from the configuration as its body limit', async () => {
    const { app, url } = await serve(configuredApp({ A2A_MAX_BODY_BYTES: 100_000 }));
    try {
      const under = await postRaw(url, Buffer.from(JSON.stringify(sendBody('a'.repeat(90_000)))));
      const over = await postRaw(url, Buffer.from(JSON.stringify(sendBody('a'.repeat(110_000)))));

      // A JSON-RPC error, with HTTP 200 as every JSON-RPC error: the under-limit body runs, the other is refused by name.
      expect(under.body).toMatchObject({ result: { status: { state: 'completed' } } });
      expect(over).toMatchObject({ status: 200, body: { error: { code: -32600, message: expect.stringContaining('limit of 100000 bytes') } } });
    } finally {
      await app.close();
    }
  });
});
