import { probeBubblewrap } from './bubblewrap';

/**
 * `describe` for suites that need bubblewrap. Without it they skip, loudly, on a developer's machine;
 * under CI=true a missing or broken bubblewrap fails instead, so CI can never pass by skipping.
 */
export function describeWithBubblewrap(name: string, body: () => void): void {
  const probe = probeBubblewrap();
  const why = probe.kind === 'missing' ? 'bwrap is not installed' : probe.kind === 'broken' ? `bwrap cannot run here (${probe.reason})` : '';
  if (probe.kind === 'works') {
    describe(name, body);
  } else if (process.env['CI'] === 'true') {
    describe(name, () => {
      it('has bubblewrap to run in', () => {
        throw new Error(`${why}, and CI=true forbids skipping bubblewrap tests`);
      });
    });
  } else {
    console.warn(`SKIPPED, ${why}: ${name}`);
    describe.skip(name, body);
  }
}
