import type { ContainerHandle } from '../engine/container-handle';

const REMOVAL_WAIT_MS = 10_000;

/**
 * Removes a container with force (no `stop || rm` race) and returns once it is gone. One already
 * gone counts as removed; one the engine is already removing (AutoRemove) is waited for.
 */
export async function removeContainer(container: ContainerHandle): Promise<void> {
  try {
    await container.remove();
  } catch (error) {
    const { statusCode, message } = error as { statusCode?: number; message?: string };
    if (statusCode === 404) return;
    if (statusCode !== 409 || !/already in progress/i.test(message ?? '')) throw error;
    await waitUntilGone(container);
  }
}

async function waitUntilGone(container: ContainerHandle): Promise<void> {
  const deadline = Date.now() + REMOVAL_WAIT_MS;
  while (Date.now() < deadline) {
    const gone = await container.state().then(
      () => false,
      (error: { statusCode?: number }) => error.statusCode === 404,
    );
    if (gone) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
