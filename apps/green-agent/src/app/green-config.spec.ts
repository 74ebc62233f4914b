import { validateEnvironment } from '@arvo-rca/agent-app';
import { GreenConfig } from './green-config';

const configOf = validateEnvironment(GreenConfig);

describe("the green agent's configuration", () => {
  it('reads MASK_TASK_IDS as a flag, on unless told otherwise', () => {
    expect(configOf({}).MASK_TASK_IDS).toBe(true);
    for (const off of ['off', 'false', '0', 'OFF']) expect(configOf({ MASK_TASK_IDS: off }).MASK_TASK_IDS).toBe(false);
    for (const on of ['on', 'true', '1']) expect(configOf({ MASK_TASK_IDS: on }).MASK_TASK_IDS).toBe(true);
  });

  it('names MASK_TASK_IDS and the words it takes when it is something else', () => {
    expect(() => configOf({ MASK_TASK_IDS: 'maybe' })).toThrow('MASK_TASK_IDS="maybe": MASK_TASK_IDS must be one of on, off, true, false, 1, 0');
  });
});
