import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ProcessTable } from '@arvo-rca/common';
import { currentOwner, formatOwnerId, ownerHost } from '@arvo-rca/sandbox';
import { describeWithDocker } from '../engine/docker-gate.testing';
import { createDockerClient } from '../engine/docker-engine';
import { sweepTestImages } from './registry.testing';

const run = promisify(execFile);
const BASE = 'debian:bookworm-slim';

describeWithDocker('the sweep of test images whose maker is gone (a suite killed before its afterAll)', () => {
  const docker = createDockerClient();
  const prefix = `sweep-${process.pid}`;
  let context: string;

  beforeAll(() => {
    context = mkdtempSync(join(tmpdir(), 'sweep-'));
  });

  afterAll(async () => {
    for (const name of ['dead', 'live', 'elsewhere', 'unlabelled'])
      await docker
        .getImage(`${prefix}-${name}:1`)
        .remove({ force: true })
        .catch(() => undefined);
    rmSync(context, { recursive: true, force: true });
  });

  async function build(name: string, label: string | undefined): Promise<string> {
    const tag = `${prefix}-${name}:1`;
    writeFileSync(join(context, 'Dockerfile'), `FROM ${BASE}\nLABEL sweep.case="${name}"\n`);
    await run('docker', ['build', '-q', ...(label === undefined ? [] : ['--label', `arvo-rca.test-image-owner=${label}`]), '-t', tag, context]);
    return tag;
  }

  it("removes the images of a maker that ended on this host, and leaves a live maker's, another host's and unlabelled ones", async () => {
    const ended = spawn('true');
    await once(ended, 'exit');
    const live = currentOwner(new ProcessTable());
    const dead = { ...live, pid: ended.pid ?? 0 };
    const tags = {
      dead: await build('dead', formatOwnerId(dead)),
      live: await build('live', formatOwnerId(live)),
      elsewhere: await build('elsewhere', formatOwnerId({ ...dead, host: `not-${ownerHost()}` })),
      unlabelled: await build('unlabelled', undefined),
    };

    await sweepTestImages();

    const present = async (tag: string): Promise<boolean> =>
      docker
        .getImage(tag)
        .inspect()
        .then(
          () => true,
          () => false,
        );
    expect({
      dead: await present(tags.dead),
      live: await present(tags.live),
      elsewhere: await present(tags.elsewhere),
      unlabelled: await present(tags.unlabelled),
    }).toEqual({
      dead: false,
      live: true,
      elsewhere: true,
      unlabelled: true,
    });
  }, 120_000);
});
