import { PendingSleeps } from './pending-sleeps';

describe('PendingSleeps', () => {
  it('resolves a sleep after its time', async () => {
    const started = Date.now();

    await new PendingSleeps().sleep(30);

    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('never resolves the sleeps pending when cancelled, and sleeps again afterwards', async () => {
    const sleeps = new PendingSleeps();
    let woke = false;
    void sleeps.sleep(20).then(() => (woke = true));

    sleeps.cancelAll();
    await new Promise((resolve) => setTimeout(resolve, 60));

    expect(woke).toBe(false);
    await expect(sleeps.sleep(1)).resolves.toBeUndefined();
  });
});
