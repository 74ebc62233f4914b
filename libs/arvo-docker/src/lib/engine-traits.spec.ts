import type Docker from 'dockerode';
import { DOCKER_TRAITS, EngineProbe, engineTraits } from './engine-traits';

function versionOf(components: { Name: string; Version: string }[], version = '20.10.24'): Docker.DockerVersion {
  return { Version: version, Components: components } as Docker.DockerVersion;
}

/** An engine whose `/version` answers from a script, and counts how often it was asked. */
function engineAnswering(...answers: (Docker.DockerVersion | Error)[]): { docker: Docker; asked: () => number } {
  let asked = 0;
  const docker = {
    version: async (): Promise<Docker.DockerVersion> => {
      const answer = answers[Math.min(asked, answers.length - 1)];
      asked += 1;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as Docker;
  return { docker, asked: () => asked };
}

describe('engineTraits', () => {
  it('lets Docker remove a container by itself', () => {
    expect(engineTraits(versionOf([{ Name: 'Engine', Version: '20.10.24' }]))).toEqual({ kind: 'docker', describe: 'Docker 20.10.24', autoRemove: true });
  });

  it('knows podman by its component and gives its containers no AutoRemove', () => {
    const podman = versionOf([{ Name: 'Podman Engine', Version: '4.3.1' }, { Name: 'Conmon', Version: '2.1.6' }], '4.3.1');

    expect(engineTraits(podman)).toEqual({ kind: 'podman', describe: 'podman 4.3.1', autoRemove: false });
  });
});

describe('EngineProbe', () => {
  it('asks the engine once', async () => {
    const engine = engineAnswering(versionOf([{ Name: 'Podman Engine', Version: '4.3.1' }]));
    const probe = new EngineProbe(engine.docker);

    expect((await probe.traits()).kind).toBe('podman');
    expect((await probe.traits()).kind).toBe('podman');
    expect(engine.asked()).toBe(1);
  });

  it('counts an engine that cannot answer as Docker, and asks again next time', async () => {
    const engine = engineAnswering(new Error('connect ECONNREFUSED'), versionOf([{ Name: 'Podman Engine', Version: '4.3.1' }]));
    const probe = new EngineProbe(engine.docker);

    expect(await probe.traits()).toEqual(DOCKER_TRAITS);
    expect((await probe.traits()).kind).toBe('podman');
    expect(engine.asked()).toBe(2);
  });
});
