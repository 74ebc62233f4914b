import { validateEnvironment } from '@arvo-rca/agent-app';
import { GreenConfig } from './green-config';
import { taskAssetsOptionsFrom } from './task-assets';
import { sandboxOptionsOf } from './tasks/sandbox/sandbox-options';

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

  it('reads the engine from DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH', () => {
    const config = configOf({ DOCKER_HOST: 'tcp://10.0.0.2:2376', DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: '/etc/arvo-rca/engine' });

    expect([config.DOCKER_HOST, config.DOCKER_TLS_VERIFY, config.DOCKER_CERT_PATH]).toEqual(['tcp://10.0.0.2:2376', true, '/etc/arvo-rca/engine']);
  });

  it('names DOCKER_HOST when it is not an engine address, and DOCKER_TLS_VERIFY when it is no flag', () => {
    expect(() => configOf({ DOCKER_HOST: '/var/run/docker.sock' })).toThrow('DOCKER_HOST must be unix:///<socket>, tcp://<host>:<port> or ssh://<user>@<host>');
    expect(() => configOf({ DOCKER_TLS_VERIFY: 'yes please' })).toThrow('DOCKER_TLS_VERIFY must be one of on, off, true, false, 1, 0');
  });

  it('reads IMAGE_DISK_BUDGET as a size, none unless told, and keeps the record of pulled images in CACHE_DIR', () => {
    expect(sandboxOptionsOf(configOf({ IMAGE_DISK_BUDGET: '0' })).images).toBeUndefined();
    expect(sandboxOptionsOf(configOf({ IMAGE_DISK_BUDGET: '40g', CACHE_DIR: '/var/cache/arvo-rca' })).images).toEqual({
      budgetBytes: 40 * 1024 ** 3,
      ledgerDir: '/var/cache/arvo-rca',
    });
  });

  it('names IMAGE_DISK_BUDGET when it is not a size', () => {
    expect(() => configOf({ IMAGE_DISK_BUDGET: 'lots' })).toThrow(
      'IMAGE_DISK_BUDGET="lots": IMAGE_DISK_BUDGET must be a size such as 40g or 512m, or 0 for none',
    );
  });

  it('reads TASK_DATA_DISK_BUDGET as a size of the task data cache, none unless told', () => {
    expect(taskAssetsOptionsFrom(configOf({})).taskDataBudgetBytes).toBe(0);
    expect(taskAssetsOptionsFrom(configOf({ TASK_DATA_DISK_BUDGET: '20g', CACHE_DIR: '/var/cache/arvo-rca' }))).toEqual(
      expect.objectContaining({ taskDataBudgetBytes: 20 * 1024 ** 3, cacheDir: '/var/cache/arvo-rca' }),
    );
  });

  it('names TASK_DATA_DISK_BUDGET when it is not a size', () => {
    expect(() => configOf({ TASK_DATA_DISK_BUDGET: '20 GB' })).toThrow(
      'TASK_DATA_DISK_BUDGET="20 GB": TASK_DATA_DISK_BUDGET must be a size such as 20g or 512m, or 0 for none',
    );
  });

  it("reads FETCH_AHEAD and PREPARE_AHEAD as counts of tasks, unset unless told (then the assessment's concurrency), and names each when it is none", () => {
    expect(configOf({}).FETCH_AHEAD).toBeUndefined();
    expect(configOf({ FETCH_AHEAD: '0' }).FETCH_AHEAD).toBe(0);
    expect(() => configOf({ FETCH_AHEAD: '-1' })).toThrow('FETCH_AHEAD="-1"');
    expect([configOf({}).PREPARE_AHEAD, configOf({ PREPARE_AHEAD: '0' }).PREPARE_AHEAD]).toEqual([undefined, 0]);
    expect(() => configOf({ PREPARE_AHEAD: 'some' })).toThrow('PREPARE_AHEAD="some"');
  });

  it('takes ARVO images from n132/arvo unless told, and names ARVO_IMAGE_TEMPLATE when it has no {id}', () => {
    expect(configOf({}).ARVO_IMAGE_TEMPLATE).toBe('n132/arvo:{id}-vul');
    expect(() => configOf({ ARVO_IMAGE_TEMPLATE: 'mirror:5000/arvo:latest' })).toThrow(
      'ARVO_IMAGE_TEMPLATE must hold {id}, where the task id goes (n132/arvo:{id}-vul)',
    );
  });
});
