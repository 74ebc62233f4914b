import { sampleTasks, samplingProblems, type SamplingKey } from './task-sampling';

const five = ['sample:1', 'sample:2', 'sample:3', 'sample:4', 'sample:5'];
const configKey = (key: SamplingKey): string => `config.${key}`;

describe('taking num_tasks tasks of a list', () => {
  it('takes the whole list when num_tasks is not given', () => {
    expect(sampleTasks(five, {})).toEqual({ tasks: five });
  });

  it('draws num_tasks of them with the seed, and says which seed', () => {
    expect(sampleTasks(five, { numTasks: 3, seed: 7 })).toEqual({ tasks: ['sample:3', 'sample:4', 'sample:5'], seed: 7 });
  });

  it('draws a seed when none is given, and the same seed draws the same tasks again', () => {
    const first = sampleTasks(five, { numTasks: 2 });

    expect(first.seed).toEqual(expect.any(Number));
    expect(sampleTasks(five, { numTasks: 2, seed: first.seed })).toEqual(first);
  });

  it('takes the first num_tasks with sample head, drawing nothing', () => {
    expect(sampleTasks(five, { numTasks: 2, sample: 'head' })).toEqual({ tasks: ['sample:1', 'sample:2'] });
  });

  it('finds nothing wrong with a sampling the list can give', () => {
    expect(samplingProblems({ numTasks: 5, seed: 1 }, 5, configKey)).toEqual([]);
    expect(samplingProblems({ numTasks: 2, sample: 'head' }, 5, configKey)).toEqual([]);
    expect(samplingProblems({}, 5, configKey)).toEqual([]);
  });

  it('names num_tasks larger than the list, a seed or a sample mode without num_tasks, and a seed with the head', () => {
    expect(samplingProblems({ numTasks: 6 }, 5, configKey)).toEqual(['config.num_tasks (6) is larger than the list, which holds 5 tasks']);
    expect(samplingProblems({ seed: 7 }, 5, configKey)).toEqual([
      'config.seed says how config.num_tasks tasks are taken from the list; give config.num_tasks too',
    ]);
    expect(samplingProblems({ seed: 7, sample: 'random' }, 5, (key) => `--${key.replace('_', '-')}`)).toEqual([
      '--seed and --sample say how --num-tasks tasks are taken from the list; give --num-tasks too',
    ]);
    expect(samplingProblems({ numTasks: 2, sample: 'head', seed: 7 }, 5, configKey)).toEqual([
      'config.seed draws nothing when config.sample is head (the first config.num_tasks tasks); leave one out',
    ]);
  });
});
