import { validateEnvironment } from '@arvo-rca/agent-app';
import { recordedSandbox, settingsDifferences } from '@arvo-rca/run-record';
import { GreenConfig } from '../../green-config';
import { scoringSettings } from './scoring-settings';

const configOf = validateEnvironment(GreenConfig);

describe('the scoring settings of a run record', () => {
  it('record the sandbox that ran, not SANDBOX=auto: bubblewrap as local, plain processes as local-unsafe', () => {
    const auto = configOf({ SANDBOX: 'auto' });

    expect(scoringSettings(auto, 'local')).toMatchObject({ SANDBOX: 'local' });
    expect(scoringSettings(auto, 'docker')).toMatchObject({ SANDBOX: 'docker' });
    expect(recordedSandbox(scoringSettings(auto, 'local-unsafe'))).toBe('local-unsafe');
  });

  it('refuse a resume in another sandbox than the one recorded', () => {
    const config = configOf({});

    expect(settingsDifferences(scoringSettings(config, 'local'), scoringSettings(config, 'docker'))).toEqual(['SANDBOX: "local" recorded, "docker" now']);
  });

  it('read a record made before the sandbox was recorded: its auto names no sandbox, and is not held against a resume', () => {
    const config = configOf({});
    const old = { ...scoringSettings(config, 'docker'), SANDBOX: 'auto' };

    expect(recordedSandbox(old)).toBe('unknown');
    expect(settingsDifferences(old, scoringSettings(config, 'local'))).toEqual([]);
    expect(settingsDifferences({ ...old, TASK_TIMEOUT_S: 600 }, scoringSettings(config, 'local'))).toEqual(['TASK_TIMEOUT_S: 600 recorded, 3600 now']);
  });
});
