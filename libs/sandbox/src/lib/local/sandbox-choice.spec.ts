import { probeBubblewrap, type BubblewrapProbe } from './bubblewrap';
import { describeWithBubblewrap } from './bubblewrap-gate.testing';
import { chooseSandbox, type SandboxHost } from './sandbox-choice';

// A host whose engine and bubblewrap answer as told.
function host(engine: boolean, bubblewrap: BubblewrapProbe): SandboxHost {
  return { engineAnswers: async () => engine, probeBubblewrap: () => bubblewrap };
}

const WORKS: BubblewrapProbe = { kind: 'works' };
const MISSING: BubblewrapProbe = { kind: 'missing' };
const BROKEN: BubblewrapProbe = { kind: 'broken', reason: 'bwrap: No permissions to create new namespace' };

describe('chooseSandbox', () => {
  it('picks docker for SANDBOX=auto when an engine answers, and for SANDBOX=docker', async () => {
    expect(await chooseSandbox('auto', host(true, MISSING))).toEqual({ kind: 'docker' });
    expect(await chooseSandbox('docker', host(true, MISSING))).toEqual({ kind: 'docker' });
  });

  it('stops the boot for SANDBOX=docker without an engine', async () => {
    await expect(chooseSandbox('docker', host(false, WORKS))).rejects.toMatchObject({
      code: 'ENGINE_UNAVAILABLE',
      message: 'SANDBOX=docker, but no Docker engine answers (at DOCKER_HOST or the local socket)',
    });
  });

  it('runs SANDBOX=local and SANDBOX=auto without an engine in bubblewrap', async () => {
    expect(await chooseSandbox('local', host(true, WORKS))).toEqual({ kind: 'local', isolation: 'bwrap' });
    expect(await chooseSandbox('auto', host(false, WORKS))).toEqual({ kind: 'local', isolation: 'bwrap' });
  });

  it('stops the boot for SANDBOX=local without bubblewrap, saying what to install and how to opt out of isolation', async () => {
    await expect(chooseSandbox('local', host(true, MISSING))).rejects.toMatchObject({
      code: 'ISOLATION_UNAVAILABLE',
      message:
        'SANDBOX=local needs bubblewrap, which is not installed: install bubblewrap (apt-get install bubblewrap), or set ' +
        "SANDBOX=local-unsafe to run the solver's commands with no isolation at all (only for solvers you trust)",
    });
  });

  it('says why an installed bubblewrap cannot run', async () => {
    await expect(chooseSandbox('local', host(true, BROKEN))).rejects.toMatchObject({
      code: 'ISOLATION_UNAVAILABLE',
      message: expect.stringContaining('which cannot run here (bwrap: No permissions to create new namespace): let bubblewrap make its namespaces'),
    });
  });

  it('never falls back to plain processes for SANDBOX=auto: without an engine or bubblewrap it stops the boot, naming both', async () => {
    await expect(chooseSandbox('auto', host(false, MISSING))).rejects.toMatchObject({
      code: 'ISOLATION_UNAVAILABLE',
      message:
        'no sandbox can run here: no Docker engine answers (at DOCKER_HOST or the local socket), and bubblewrap is not ' +
        'installed. Install Docker (apt-get install docker.io), or install bubblewrap (apt-get install bubblewrap), or set ' +
        "SANDBOX=local-unsafe to run the solver's commands with no isolation at all (only for solvers you trust)",
    });
    await expect(chooseSandbox('auto', host(false, BROKEN))).rejects.toMatchObject({ code: 'ISOLATION_UNAVAILABLE' });
  });

  it('runs plain processes only when asked for by name, SANDBOX=local-unsafe', async () => {
    expect(await chooseSandbox('local-unsafe', host(false, MISSING))).toEqual({ kind: 'local', isolation: 'process' });
  });

  it('rejects an unknown SANDBOX, listing the choices', async () => {
    await expect(chooseSandbox('bogus', host(true, WORKS))).rejects.toMatchObject({
      code: 'SANDBOX_UNKNOWN',
      message: 'SANDBOX="bogus" is not a sandbox backend; use one of: auto, docker, local, local-unsafe',
    });
  });
});

describe('probeBubblewrap', () => {
  it('reports a bwrap that is not installed as missing', () => {
    expect(probeBubblewrap('/nonexistent/bwrap')).toEqual({ kind: 'missing' });
  });

  it('reports a bwrap that fails as broken, with its words or its exit status', () => {
    expect(probeBubblewrap('false')).toEqual({ kind: 'broken', reason: 'it exited with 1' });
  });
});

describeWithBubblewrap('probeBubblewrap with bwrap installed', () => {
  it('reports that it works', () => {
    expect(probeBubblewrap()).toEqual({ kind: 'works' });
  });
});
