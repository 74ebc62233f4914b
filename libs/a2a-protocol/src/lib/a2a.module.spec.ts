import { Inject, Injectable, Module } from '@nestjs/common';
import type { AgentExecutor } from '@a2a-js/sdk/server';
import { A2aModule, type A2aModuleOptions } from './a2a.module';
import { AGENT_CARD_PATH, buildAgentCard } from './agent-card';
import { A2aClientFactory } from './client/a2a-client.factory';
import { EchoExecutor } from './testing/echo-executor.testing';
import { readJson, sendMessageBody, serveModule as serve } from './testing/http.testing';

const card: A2aModuleOptions['card'] = {
  useFactory: () => buildAgentCard({ name: 'module test', description: 'd', version: '0', url: 'http://127.0.0.1:1/', skills: [] }),
};

const SEND = sendMessageBody('hi');
const post = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(SEND) });

// A service of the app that the executor needs, from a module of the app.
const GREETING = Symbol('GREETING');
@Module({ providers: [{ provide: GREETING, useValue: 'from the app' }], exports: [GREETING] })
class GreetingModule {}

@Injectable()
class AppExecutor extends EchoExecutor implements AgentExecutor {
  constructor(
    @Inject(GREETING) readonly greeting: string,
    readonly clients: A2aClientFactory,
  ) {
    super();
  }
}

describe('A2aModule', () => {
  it('serves only the card when the app has no executor yet', async () => {
    const { app, url } = await serve(A2aModule.forRoot({ card }));
    try {
      expect((await fetch(new URL(AGENT_CARD_PATH, url))).status).toBe(200);
      expect((await post(url)).status).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('builds an executor class with services from the given imports and its own client factory', async () => {
    const { app, url } = await serve(A2aModule.forRoot({ card, executor: AppExecutor, imports: [GreetingModule] }));
    try {
      const executor = app.get(AppExecutor);
      const reply = await readJson(await post(url));

      expect(executor.greeting).toBe('from the app');
      expect(executor.clients).toBeInstanceOf(A2aClientFactory);
      expect(reply.result.status.state).toBe('completed');
    } finally {
      await app.close();
    }
  });

  it('takes an executor provided under a token by one of the imports', async () => {
    @Module({ providers: [EchoExecutor, { provide: 'EXECUTOR', useExisting: EchoExecutor }], exports: ['EXECUTOR', EchoExecutor] })
    class AgentLogicModule {}
    const { app, url } = await serve(A2aModule.forRoot({ card, executor: 'EXECUTOR', imports: [AgentLogicModule] }));
    try {
      await post(url);
      expect(app.get(EchoExecutor).calls.map((call) => call.text)).toEqual(['hi']);
    } finally {
      await app.close();
    }
  });

  it('makes its client factory injectable anywhere in the app', async () => {
    @Injectable()
    class Messenger {
      constructor(readonly clients: A2aClientFactory) {}
    }
    @Module({ providers: [Messenger] })
    class FeatureModule {}
    @Module({ imports: [A2aModule.forRoot({ card, server: { useFactory: () => ({ token: 't' }) } }), FeatureModule] })
    class AppWithFeature {}
    const { app } = await serve(AppWithFeature);
    try {
      expect(app.get(Messenger).clients).toBe(app.get(A2aClientFactory));
    } finally {
      await app.close();
    }
  });
});
