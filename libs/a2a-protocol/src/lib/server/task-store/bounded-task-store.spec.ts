import { randomUUID } from 'node:crypto';
import { Role, TaskState, type AgentCard, type Message, type Task } from '@a2a-js/sdk';
import { DefaultRequestHandler, ServerCallContext, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { TaskEvents } from '../task-events';
import { BoundedTaskStore } from './bounded-task-store';

function message(text: string): Message {
  return {
    messageId: randomUUID(),
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
    contextId: '',
    taskId: '',
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function task(id: string, state: TaskState, history: Message[] = [], timestamp = new Date().toISOString()): Task {
  return { id, contextId: `ctx-${id}`, status: { state, message: undefined, timestamp }, artifacts: [], history, metadata: undefined };
}

const texts = (loaded: Task | undefined): string[] =>
  (loaded?.history ?? []).map((entry) => (entry.parts[0].content?.$case === 'text' ? entry.parts[0].content.value : ''));

describe('BoundedTaskStore', () => {
  const context = new ServerCallContext();

  it('keeps the request and the latest messages of a long history', async () => {
    const store = new BoundedTaskStore({ historyLimit: 4, finishedLimit: 10 });
    await store.save(task('t', TaskState.TASK_STATE_WORKING, ['request', 'a', 'b', 'c', 'd', 'e'].map(message)), context);

    expect(texts(await store.load('t', context))).toEqual(['request', 'c', 'd', 'e']);
  });

  it('hands out copies, so that changing a loaded task changes nothing stored', async () => {
    const store = new BoundedTaskStore();
    await store.save(task('t', TaskState.TASK_STATE_WORKING, [message('request')]), context);
    const loaded = await store.load('t', context);
    loaded?.history.push(message('not saved'));

    expect(texts(await store.load('t', context))).toEqual(['request']);
  });

  it('hands out messages nobody can change, and copies of those holding bytes', async () => {
    const store = new BoundedTaskStore();
    const parts: Message['parts'] = [
      { content: { $case: 'data', value: { exit_status: 'Submitted' } }, metadata: undefined, filename: '', mediaType: 'application/json' },
    ];
    const bytes: Message['parts'] = [
      { content: { $case: 'raw', value: Buffer.from([1, 2, 3]) }, metadata: undefined, filename: 'b', mediaType: 'application/octet-stream' },
    ];
    await store.save(
      task('t', TaskState.TASK_STATE_WORKING, [
        { ...message('request'), parts },
        { ...message('file'), parts: bytes },
      ]),
      context,
    );
    const loaded = await store.load('t', context);
    const [data, raw] = loaded?.history.map((entry) => entry.parts[0].content?.value) ?? [];
    // Module code is strict: writing to a frozen object throws.
    expect(() => Object.assign(data as object, { exit_status: 'changed' })).toThrow(TypeError);
    expect(() => loaded?.history[0].parts.push(...parts)).toThrow(TypeError);
    (raw as Buffer).fill(0);

    const again = (await store.load('t', context))?.history.map((entry) => entry.parts);
    expect(again).toEqual([parts, bytes]);
  });

  it('stores a loaded message that holds bytes as changed, and keeps what a caller changes in a task it made', async () => {
    const store = new BoundedTaskStore();
    const raw = (value: number): Message['parts'] => [
      { content: { $case: 'raw', value: Buffer.from([value]) }, metadata: undefined, filename: 'b', mediaType: 'application/octet-stream' },
    ];
    await store.save(task('t', TaskState.TASK_STATE_WORKING, [message('request'), { ...message('file'), parts: raw(1) }]), context);
    const loaded = await store.load('t', context);
    (loaded?.history[1].parts[0].content?.value as Buffer).fill(7);
    if (loaded) await store.save(loaded, context);
    expect((await store.load('t', context))?.history[1].parts).toEqual(raw(7));

    const made = task('u', TaskState.TASK_STATE_WORKING, [message('request')]);
    await store.save(made, context);
    made.history[0].parts = [];
    expect(texts(await store.load('u', context))).toEqual(['request']);
  });

  it('copies into the store only what a status update adds, and hands out its history without copying it', async () => {
    const store = new BoundedTaskStore({ historyLimit: 100, finishedLimit: 10 });
    await store.save(task('t', TaskState.TASK_STATE_WORKING, [message('request')]), context);
    for (let step = 1; step <= 300; step++) {
      const loaded = await store.load('t', context);
      if (!loaded) throw new Error('the task is gone');
      await store.save({ ...loaded, history: [...loaded.history, message(`step ${step}`)] }, context);
    }

    // The request, then one message a step; copying the loaded history back would be 100 a step.
    expect(store.copiedMessages).toBe(301);
    // Nor does a load copy them: two loads hand out the same messages, in arrays of their own.
    const [first, second] = [await store.load('t', context), await store.load('t', context)];
    expect(first?.history).not.toBe(second?.history);
    expect(first?.history.every((entry, index) => entry === second?.history[index])).toBe(true);
    expect(texts(await store.load('t', context)).slice(0, 2)).toEqual(['request', 'step 202']);
  });

  it('forgets the longest-finished tasks beyond its limit, never a running one', async () => {
    const store = new BoundedTaskStore({ historyLimit: 10, finishedLimit: 2 });
    await store.save(task('running', TaskState.TASK_STATE_WORKING), context);
    for (const id of ['a', 'b', 'c']) await store.save(task(id, TaskState.TASK_STATE_WORKING), context);
    // Finished in the order b, a, c: b goes first, though a was created first.
    for (const id of ['b', 'a', 'c']) await store.save(task(id, TaskState.TASK_STATE_COMPLETED), context);

    const present = await Promise.all(['running', 'a', 'b', 'c'].map(async (id) => (await store.load(id, context)) !== undefined));
    expect(present).toEqual([true, true, false, true]);
  });

  it('keeps each caller to its own tasks', async () => {
    const store = new BoundedTaskStore();
    const tenantA = new ServerCallContext({ tenant: 'a' });
    await store.save(task('t', TaskState.TASK_STATE_WORKING), tenantA);

    expect(await store.load('t', tenantA)).toBeDefined();
    expect(await store.load('t', new ServerCallContext({ tenant: 'b' }))).toBeUndefined();
    expect(
      (
        await store.list(
          { tenant: 'b', contextId: '', status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: '', statusTimestampAfter: undefined },
          new ServerCallContext({ tenant: 'b' }),
        )
      ).tasks,
    ).toEqual([]);
  });

  it('lists newest first, filtered and in pages, with artifacts only when asked', async () => {
    const store = new BoundedTaskStore();
    const at = (second: number): string => new Date(Date.UTC(2026, 10, 23, 12, 0, second)).toISOString();
    await store.save(task('old', TaskState.TASK_STATE_COMPLETED, [], at(1)), context);
    await store.save(
      {
        ...task('mid', TaskState.TASK_STATE_WORKING, [], at(2)),
        artifacts: [{ artifactId: 'r', name: 'Result', description: '', parts: [], metadata: undefined, extensions: [] }],
      },
      context,
    );
    await store.save(task('new', TaskState.TASK_STATE_WORKING, [], at(3)), context);
    const all = { tenant: '', contextId: '', status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: '', statusTimestampAfter: undefined };

    const first = await store.list({ ...all, pageSize: 2 }, context);
    expect(first.tasks.map((entry) => entry.id)).toEqual(['new', 'mid']);
    expect(first.totalSize).toBe(3);
    expect(first.tasks[1].artifacts).toEqual([]);
    const second = await store.list({ ...all, pageSize: 2, pageToken: first.nextPageToken }, context);
    expect(second).toMatchObject({ tasks: [expect.objectContaining({ id: 'old' })], nextPageToken: '' });

    expect(
      (await store.list({ ...all, status: TaskState.TASK_STATE_WORKING, includeArtifacts: true }, context)).tasks.map((entry) => [
        entry.id,
        entry.artifacts.length,
      ]),
    ).toEqual([
      ['new', 0],
      ['mid', 1],
    ]);
    expect((await store.list({ ...all, contextId: 'ctx-old' }, context)).tasks.map((entry) => entry.id)).toEqual(['old']);
    expect((await store.list({ ...all, statusTimestampAfter: at(2) }, context)).tasks.map((entry) => entry.id)).toEqual(['new']);
    await expect(store.list({ ...all, pageToken: Buffer.from('no cursor').toString('base64') }, context)).rejects.toThrow('Invalid page token format.');
  });

  it("bounds what the SDK's request handler keeps of a task that reports progress a thousand times", async () => {
    const executor: AgentExecutor = {
      async execute(request: RequestContext, bus: ExecutionEventBus) {
        const events = new TaskEvents(request, bus);
        events.start('started');
        for (let step = 1; step <= 1000; step++) events.progress(`step ${step}`);
        events.end(TaskState.TASK_STATE_COMPLETED, 'done');
      },
      async cancelTask(_taskId: string, bus: ExecutionEventBus) {
        bus.finished();
      },
    };
    const card = { name: 'store test', capabilities: { streaming: true } } as AgentCard;
    const store = new BoundedTaskStore({ historyLimit: 5, finishedLimit: 10 });
    const handler = new DefaultRequestHandler(card, store, executor);

    const result = await handler.sendMessage({ tenant: '', message: message('go'), configuration: undefined, metadata: undefined }, context);
    const taskId = (result as Task).id;
    const stored = await handler.getTask({ tenant: '', id: taskId, historyLength: undefined }, context);

    expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(texts(stored)).toEqual(['go', 'step 998', 'step 999', 'step 1000', 'done']);
    // The request and each status message, once each: not the history again at every update.
    expect(store.copiedMessages).toBeLessThanOrEqual(1 + 1000 + 2);
  });
});
