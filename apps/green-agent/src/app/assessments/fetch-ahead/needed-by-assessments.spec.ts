import { randomUUID } from 'node:crypto';
import { A2aClientFactory } from '@arvo-rca/a2a-protocol';
import { NeededImages } from '@arvo-rca/arvo-docker';
import { describeWithDocker, sampleImageTag } from '@arvo-rca/arvo-docker/testing';
import { NeededTaskData } from '../../task-assets';
import { greenStage } from '../../stage/green-stage.testing';
import { callingBack } from '../../stage/solver-stand-in.testing';

describeWithDocker('green agent, the images and the task data an assessment still needs', () => {
  const clients = new A2aClientFactory();
  const stage = greenStage('needed-images');

  it("holds each remaining task's image and data until that task ends, and none once the assessment ends", async () => {
    const { green, greenUrl, solver } = await stage.start(callingBack(['true']));
    const [images, data] = [green.get(NeededImages), green.get(NeededTaskData)];
    const [first, second] = [sampleImageTag('1'), sampleImageTag('2')];
    const seen: string[] = [];
    const look = (): void => {
      const state = [
        `${images.isNeeded(first) ? 'first' : '-'} ${images.isNeeded(second) ? 'second' : '-'}`,
        `${data.isNeeded('sample:1') ? 'first' : '-'} ${data.isNeeded('sample:2') ? 'second' : '-'}`,
      ].join(' | ');
      if (seen.at(-1) !== state) seen.push(state);
    };
    const watching = setInterval(look, 5);
    try {
      const request = JSON.stringify({ participants: { purple_agent: solver.agent.url }, config: { task_ids: ['sample:1', 'sample:2'], concurrency: 1 } });
      for await (const _event of clients.peer(greenUrl).streamText(randomUUID(), request, { deadlineMs: 180_000 })) look();
    } finally {
      clearInterval(watching);
    }
    look();

    // One task at a time: the second's image is needed while the first runs, and after it ends.
    expect(seen).toEqual(['- - | - -', 'first second | first second', '- second | - second', '- - | - -']);
  }, 200_000);
});
