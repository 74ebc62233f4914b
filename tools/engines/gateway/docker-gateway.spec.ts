import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import Docker from 'dockerode';
import { describeWithDocker, sampleImageTag } from '@arvo-rca/arvo-docker/testing';
import { DockerGatewayStandIn } from './docker-gateway';

const ENGINE_SOCKET = '/var/run/docker.sock';
const spec = { Image: sampleImageTag('1'), Cmd: ['sleep', '120'], Labels: { 'arvo-rca.gateway-spec': '1' }, HostConfig: { NetworkMode: 'none', Init: true } };

/** Everything one hijacked exec printed (stdout and stderr frames, headers stripped). */
async function execOutput(container: Docker.Container, cmd: string[], stdin?: string): Promise<string> {
  const exec = await container.exec({ Cmd: cmd, AttachStdin: stdin !== undefined, AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: stdin !== undefined });
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  container.modem.demuxStream(stream, out, out);
  if (stdin !== undefined) stream.end(stdin);
  await new Promise((resolve) => stream.on('end', resolve));
  return Buffer.concat(chunks).toString('utf8');
}

describeWithDocker("the stand-in for AgentBeats' Docker gateway, in front of the real engine", () => {
  const engine = new Docker({ socketPath: ENGINE_SOCKET });
  const made: string[] = [];
  let dir: string;
  let gateway: DockerGatewayStandIn;
  let through: Docker;

  beforeAll(async () => {
    dir = await mkdtemp('/tmp/arvo-gw-spec-');
    gateway = new DockerGatewayStandIn({ engineSocket: ENGINE_SOCKET, owner: { component: 'spec', project: `spec-${process.pid}` } });
    await gateway.listen({ path: join(dir, 'docker.sock') });
    through = new Docker({ socketPath: join(dir, 'docker.sock') });
  });

  afterAll(async () => {
    await Promise.all(
      made.map((id) =>
        engine
          .getContainer(id)
          .remove({ force: true })
          .catch(() => undefined),
      ),
    );
    await gateway.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function create(docker: Docker): Promise<Docker.Container> {
    const container = await docker.createContainer(spec);
    made.push(container.id);
    return container;
  }

  it('serves a container it made: start, hijacked exec with stdin, archive in and out, inspect, restart, removal', async () => {
    const container = await create(through);
    await container.start();
    expect(await execOutput(container, ['cat'], 'through the gateway\n')).toBe('through the gateway\n');
    const tar = await engine.getContainer(container.id).getArchive({ path: '/etc/hostname' });
    await container.putArchive(tar, { path: '/tmp' });
    expect(await execOutput(container, ['cat', '/tmp/hostname'])).toBe(await execOutput(container, ['cat', '/etc/hostname']));
    expect((await container.inspect()).Config.Labels).toMatchObject({ 'amber.component': 'spec', 'arvo-rca.gateway-spec': '1' });
    await container.restart({ t: 0 });
    await container.remove({ force: true });
    expect(gateway.refused).toEqual([]);
  });

  it("refuses, and records, anything on a container it did not make; one that does not exist gets the engine's 404", async () => {
    const foreign = await create(engine);
    await expect(through.getContainer(foreign.id).inspect()).rejects.toMatchObject({ statusCode: 403 });
    await expect(through.getContainer(foreign.id).remove({ force: true })).rejects.toMatchObject({ statusCode: 403 });
    await expect(through.getContainer('no-such-container-here').inspect()).rejects.toMatchObject({ statusCode: 404 });
    expect(gateway.refused.map((call) => call.method)).toEqual(['GET', 'DELETE']);
  });

  it('lists only what it made, whatever filter the caller asks for', async () => {
    const own = await create(through);
    const foreign = await create(engine);
    const listed = (await through.listContainers({ all: true, filters: { label: ['arvo-rca.gateway-spec'] } })).map((info) => info.Id);
    expect(listed).toContain(own.id);
    expect(listed).not.toContain(foreign.id);
  });

  it('refuses image build, delete and list, with 403', async () => {
    const before = gateway.refused.length;
    await expect(through.getImage('arvo-rca-gateway-spec:none').remove()).rejects.toMatchObject({ statusCode: 403 });
    await expect(through.listImages()).rejects.toMatchObject({ statusCode: 403 });
    await expect(through.buildImage(new PassThrough().end() as unknown as NodeJS.ReadableStream, { t: 'arvo-rca-gateway-spec:none' })).rejects.toMatchObject({
      statusCode: 403,
    });
    expect(gateway.refused.length - before).toBe(3);
  });
});
