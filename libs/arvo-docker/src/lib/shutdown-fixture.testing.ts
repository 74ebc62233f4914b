// A green-agent-like process for the shutdown test: boots ArvoDockerModule with shutdown hooks,
// starts one task sandbox, prints its owner id and container name, and waits for a signal.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { SANDBOX_FACTORY, SANDBOX_OWNER, type SandboxFactory } from '@arvo-rca/sandbox';
import { ArvoDockerModule } from './arvo-docker.module';
import { engineSettingsFromEnvironment } from './engine/engine-settings';

async function main(): Promise<void> {
  const [tmpDir, workspaceDir, image] = process.argv.slice(2);
  const app = await NestFactory.createApplicationContext(ArvoDockerModule.forRoot({ sandbox: 'docker', tmpDir, engine: engineSettingsFromEnvironment() }), {
    logger: ['error'],
  });
  app.enableShutdownHooks();
  const sandbox = app.get<SandboxFactory>(SANDBOX_FACTORY).create({ task: 'sample:1', contextId: 'ctx-shutdown', image, workspaceDir });
  await sandbox.start();
  process.stdout.write(`${JSON.stringify({ owner: app.get<string>(SANDBOX_OWNER), name: sandbox.name })}\n`);
  setInterval(() => undefined, 60_000); // stay up until signalled
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
