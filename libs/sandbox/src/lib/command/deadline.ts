/**
 * `work`, or the error `expired` gives once `ms` pass first (it may also stop what was waited for: kill a
 * process, abort a request). The timer goes with the race, whichever way it ends; `work` is not stopped.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, expired: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(expired()), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
