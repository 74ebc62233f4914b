import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type PeerEvent } from '@arvo-rca/a2a-protocol';
import { rejectionOf } from '@arvo-rca/a2a-protocol/testing';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import type { AssessmentResult } from '@arvo-rca/results';
import { greenStage, type GreenScene } from '../../stage/green-stage.testing';
import { callingBack, type SolverStandIn } from '../../stage/solver-stand-in.testing';

const SOLVING = callingBack(['echo \'{"reasoning": "", "locations": []}\' > /workspace/shared/loc.json']);
const REPO_LISTS = join(__dirname, '..', '..', '..', '..', '..', '..', 'task-lists');

/**
 * config.task_ids_file on the whole green agent: a named list, or a regular file in TASK_LISTS_DIR or in the
 * operator's TASK_LIST_FILES_DIR; any other path is refused unread, and the refusal says nothing of it.
 */
describeWithDocker('green agent, the list files a request may name', () => {
  const stage = greenStage('list-files');
  let send: GreenScene['assess'];
  let solver: SolverStandIn, named: string, operator: string, outside: string;

  beforeAll(async () => {
    const scratch = stage.scratch();
    named = join(scratch, 'named');
    operator = join(scratch, 'operator');
    outside = join(scratch, 'outside');
    cpSync(REPO_LISTS, named, { recursive: true });
    mkdirSync(operator);
    mkdirSync(outside);
    // What a path out of the allowed folders leads to: ids a green agent would run if it read them.
    writeFileSync(join(outside, 'ids.txt'), 'sample:1\n14368\n');
    symlinkSync(join(outside, 'ids.txt'), join(operator, 'link.txt'));
    symlinkSync(outside, join(operator, 'out'));
    ({ solver, assess: send } = await stage.start(SOLVING, { TASK_LISTS_DIR: named, TASK_LIST_FILES_DIR: operator }));
  });

  beforeEach(() => {
    solver.runs = [];
  });

  const tasksOf = (events: PeerEvent[]): string[] =>
    (events.find((event) => event.kind === 'artifact' && event.name === 'Result') as { data: AssessmentResult[] }).data[0].task_ids;

  it('refuses /etc/shadow, /proc/self/environ, a ../ escape, a link out and a missing file alike, naming the allowed folders and nothing of the file', async () => {
    const specs = [
      '/etc/shadow',
      '/proc/self/environ',
      join(operator, '..', 'outside', 'ids.txt'),
      join(operator, 'link.txt'),
      join(operator, 'out', 'ids.txt'),
      join(operator, 'missing.txt'),
    ];

    for (const spec of specs) {
      const text = rejectionOf(await send({ task_ids_file: spec }));
      expect({ spec, text }).toEqual({
        spec,
        text:
          'Invalid assessment request, nothing was started:\n' +
          `- config.task_ids_file: task list file ${JSON.stringify(spec)} is not one this green agent reads: a list file must be a regular file in ${named}, ${operator} ` +
          '(or name a task list: rcabench-1000, rcabench-clean-181, samples)',
      });
    }
    expect(solver.runs).toEqual([]);
  }, 120_000);

  it('still runs a named list, a file in TASK_LISTS_DIR and a file in TASK_LIST_FILES_DIR', async () => {
    writeFileSync(join(named, 'mine.txt'), 'sample:2\n');
    writeFileSync(join(operator, 'theirs.txt'), '# the operator list\nsample:3\n');

    expect(tasksOf(await send({ task_ids_file: 'samples', num_tasks: 1, sample: 'head' }))).toEqual(['sample:1']);
    expect(tasksOf(await send({ task_ids_file: join(named, 'mine.txt') }))).toEqual(['sample:2']);
    expect(tasksOf(await send({ task_ids_file: join(operator, 'theirs.txt') }))).toEqual(['sample:3']);
    expect(solver.runs).toHaveLength(3);
  }, 300_000);
});
