import { withDeadline } from './deadline';

describe('withDeadline', () => {
  const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

  it("gives the work's value when it comes first, and leaves no timer behind", async () => {
    const before = timers();

    await expect(withDeadline(Promise.resolve('done'), 60_000, () => new Error('late'))).resolves.toBe('done');
    expect(timers()).toBe(before);
  });

  it("gives the work's failure when it comes first, and leaves no timer behind", async () => {
    const before = timers();

    await expect(withDeadline(Promise.reject(new Error('refused')), 60_000, () => new Error('late'))).rejects.toThrow('refused');
    expect(timers()).toBe(before);
  });

  it('rejects with the error the expiry gives once the time passes, after its action ran', async () => {
    let stopped = false;
    const never = new Promise<string>(() => undefined);

    await expect(
      withDeadline(never, 20, () => {
        stopped = true;
        return new Error('took too long');
      }),
    ).rejects.toThrow('took too long');
    expect(stopped).toBe(true);
  });
});
