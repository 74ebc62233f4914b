/** A call that throws `failures` in turn, then answers 'ok'; `calls` counts the attempts made of it. */
export function flakyCall(failures: readonly unknown[]): { call: () => Promise<string>; calls: () => number } {
  let calls = 0;
  return {
    call: async () => {
      const failure = failures[calls];
      calls += 1;
      if (failure !== undefined) throw failure;
      return 'ok';
    },
    calls: () => calls,
  };
}
