import { failedTask, interruptedTask, scoreSubmission, type GroundTruth } from '@arvo-rca/rca-eval';
import { aggregateResults, type ResultInput, type TaskErrorFields } from '@arvo-rca/results';
import { verdictOf } from './run-verdict';

const TRUTH: GroundTruth = {
  spans: [{ file: 'src/index.c', function: 'index_span', vulSpan: { start: 64, end: 70 }, fixSpan: { start: 64, end: 71 }, change: 'modified' }],
  project: 'tlvkit',
  notes: [],
};
const LOC = JSON.stringify([{ file: 'src/other.c', function: 'elsewhere', line_start: 1, line_end: 2 }]);
const place = { engine: 'unix:///var/run/docker.sock', greens: ['http://127.0.0.1:9009/'], retry: 'npm run assess -- --resume logs/r --retry-failed' };

function result(tasks: ResultInput[]) {
  return aggregateResults(tasks, 1);
}

/** What the green agent's record keeps of a failed pull of `image`. */
function pullFailure(image: string): TaskErrorFields {
  return { error_code: 'IMAGE_PULL_FAILED', image };
}

describe("the runner's exit status and last line", () => {
  it('is 0 with nothing more to say when the solver got every task wrong: a wrong answer is a result', () => {
    const wrong = result([
      { task_id: 'sample:1', metrics: scoreSubmission(LOC, TRUTH) },
      { task_id: 'sample:2', metrics: scoreSubmission(null, TRUTH) },
    ]);
    expect(wrong.task_metrics['sample:1'].status).toBe('scored');
    expect(verdictOf(wrong, place)).toEqual({ exitCode: 0, lines: [] });
  });

  it('is 1 when a task could not get its image, naming the image, the engine and what to run', () => {
    const unpulled = result(
      [1, 2].map((id) => ({
        task_id: `sample:${id}`,
        metrics: failedTask(`pulling arvo-rca-sample:${id}-vul failed: (HTTP code 500) no such host `, null, pullFailure(`arvo-rca-sample:${id}-vul`)),
      })),
    );
    const { exitCode, lines } = verdictOf(unpulled, place);
    expect(exitCode).toBe(1);
    expect(lines.slice(0, 2)).toEqual([
      '  sample:1  failed: pulling arvo-rca-sample:1-vul failed: (HTTP code 500) no such host',
      '  sample:2  failed: pulling arvo-rca-sample:2-vul failed: (HTTP code 500) no such host',
    ]);
    expect(lines.at(-1)).toBe(
      'assess: 2 of 2 tasks failed: image arvo-rca-sample:1-vul, arvo-rca-sample:2-vul could not be had on the engine at unix:///var/run/docker.sock; ' +
        'run `npm run images` on that engine (`npm start` does it when it starts the green agent); then `npm run assess -- --resume logs/r --retry-failed` runs them again',
    );
  });

  it('names three images at most', () => {
    const unpulled = result(
      [1, 2, 3, 4, 5].map((id) => ({
        task_id: `sample:${id}`,
        metrics: failedTask(`pulling arvo-rca-sample:${id}-vul failed: no such host`, null, pullFailure(`arvo-rca-sample:${id}-vul`)),
      })),
    );
    expect(verdictOf(unpulled, place).lines.at(-1)).toMatch(
      /^assess: 5 of 5 tasks failed: image arvo-rca-sample:1-vul, arvo-rca-sample:2-vul, arvo-rca-sample:3-vul and 2 more could not be had on/,
    );
  });

  it("asks for a pull by hand of an ARVO image, on the green agent's engine when the green agent was given", () => {
    const unpulled = result([
      {
        task_id: 'arvo:14368',
        metrics: failedTask('pulling n132/arvo:14368-vul did not finish within 1800 s', null, {
          error_code: 'IMAGE_PULL_TIMEOUT',
          image: 'n132/arvo:14368-vul',
        }),
      },
    ]);
    expect(verdictOf(unpulled, { greens: ['http://green:9009/'] }).lines.at(-1)).toBe(
      'assess: 1 of 1 tasks failed: image n132/arvo:14368-vul could not be had on the engine of the green agent at http://green:9009/; check that the engine reaches the registry (`docker pull n132/arvo:14368-vul`)',
    );
  });

  it('names the image the green agent tried, as its Result says (a mirror by ARVO_IMAGE_TEMPLATE), not the one the id names by default', () => {
    const mirror = 'registry.local:5000/arvo:14368-vul';
    const unpulled = result([{ task_id: 'arvo:14368', metrics: failedTask(`pulling ${mirror} failed: connection refused`, null, pullFailure(mirror)) }]);
    expect(verdictOf(unpulled, { greens: ['http://green:9009/'] }).lines.at(-1)).toBe(
      `assess: 1 of 1 tasks failed: image ${mirror} could not be had on the engine of the green agent at http://green:9009/; check that the engine reaches the registry (\`docker pull ${mirror}\`)`,
    );
  });

  it('names the image a task id names by default in a Result from a green agent that did not name the image', () => {
    const unpulled = result([{ task_id: 'arvo:14368', metrics: failedTask('the registry refused', null, { error_code: 'IMAGE_PULL_FAILED' }) }]);
    expect(verdictOf(unpulled, { greens: ['http://green:9009/'] }).lines.at(-1)).toMatch(
      /^assess: 1 of 1 tasks failed: image n132\/arvo:14368-vul could not be had on/,
    );
  });

  it("knows an image failure by its error code, not by its reason's words", () => {
    const unpulled = result([{ task_id: 'sample:2', metrics: failedTask('the registry refused', null, pullFailure('arvo-rca-sample:2-vul')) }]);
    expect(verdictOf(unpulled, place).lines.at(-1)).toMatch(/^assess: 1 of 1 tasks failed: image arvo-rca-sample:2-vul could not be had on/);
    const uncoded = result([{ task_id: 'sample:1', metrics: failedTask('pulling arvo-rca-sample:1-vul failed: no such host') }]);
    expect(verdictOf(uncoded, place).lines.at(-1)).toMatch(
      /^assess: 1 of 1 tasks failed: sample:1: pulling arvo-rca-sample:1-vul failed: no such host; its log says more/,
    );
  });

  it('is 1 when a task failed otherwise or was interrupted, naming the first failure', () => {
    const broken = result([
      { task_id: 'sample:1', metrics: scoreSubmission(null, TRUTH) },
      { task_id: 'sample:2', metrics: interruptedTask('the green agent is shutting down') },
      { task_id: 'sample:3', metrics: failedTask('the solver at http://127.0.0.1:1/ could not be reached') },
    ]);
    expect(verdictOf(broken, place).lines.at(-1)).toBe(
      'assess: 1 of 3 tasks failed, 1 of 3 were interrupted: sample:3: the solver at http://127.0.0.1:1/ could not be reached; its log says more; then `npm run assess -- --resume logs/r --retry-failed` runs them again',
    );
    const stopped = result([{ task_id: 'sample:2', metrics: interruptedTask('the green agent is shutting down') }]);
    expect(verdictOf(stopped, place).lines.at(-1)).toMatch(/^assess: 1 of 1 were interrupted: the green agent stopped before they ended; then/);
  });

  it('is 1 when nothing was assessed', () => {
    expect(verdictOf(result([]), place)).toEqual({ exitCode: 1, lines: ['assess: nothing was assessed: the Result holds no task'] });
  });
});
