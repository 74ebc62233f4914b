import type Docker from 'dockerode';
import { engineKind } from './engine-kind.testing';

function versionOf(components: { Name: string; Version: string }[], version = '20.10.24'): Docker.DockerVersion {
  return { Version: version, Components: components } as Docker.DockerVersion;
}

describe('engineKind', () => {
  it('knows Docker by its engine component', () => {
    expect(engineKind(versionOf([{ Name: 'Engine', Version: '20.10.24' }]))).toBe('docker');
  });

  it('knows podman by its component', () => {
    expect(
      engineKind(
        versionOf(
          [
            { Name: 'Podman Engine', Version: '4.3.1' },
            { Name: 'Conmon', Version: '2.1.6' },
          ],
          '4.3.1',
        ),
      ),
    ).toBe('podman');
  });
});
