import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';

/** One JSON-RPC answer sent whole (not streamed): its HTTP status and body. */
export interface JsonRpcReply {
  kind: 'reply';
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** A JSON-RPC error `-32600` (Invalid Request) for the request `id`, in both protocol versions; HTTP 200, as every JSON-RPC error here. */
export function invalidRequest(reason: string, id: unknown = null): JsonRpcReply {
  return {
    kind: 'reply',
    status: 200,
    body: { jsonrpc: '2.0', id, error: { code: A2A_ERROR_CODE.INVALID_REQUEST, message: `Invalid Request: ${reason}` } },
    headers: {},
  };
}

/**
 * Answers a JSON-RPC 2.0 batch as the specification says: an empty batch is one Invalid Request; else
 * an array of the answers to its requests, notifications (no `id`) left out, and nothing at all (HTTP
 * 204) when every request was a notification. A streaming call cannot be answered inside an array: it
 * gets an Invalid Request of its own.
 */
export async function answerBatch(
  items: unknown[],
  isStreamingCall: (item: unknown) => boolean,
  answer: (item: unknown) => Promise<JsonRpcReply>,
): Promise<JsonRpcReply> {
  if (items.length === 0) return invalidRequest('the batch is empty');
  const answers = await Promise.all(
    items.map(async (item) => {
      if (isStreamingCall(item)) return invalidRequest('a streaming method cannot be called in a batch; call it on its own', idOf(item));
      const reply = await answer(item);
      return isNotification(item) ? undefined : reply;
    }),
  );
  const bodies = answers.flatMap((reply) => (reply === undefined ? [] : [reply.body]));
  if (bodies.length === 0) return { kind: 'reply', status: 204, body: undefined, headers: {} };
  return { kind: 'reply', status: 200, body: bodies, headers: {} };
}

function isNotification(item: unknown): boolean {
  return typeof item === 'object' && item !== null && !Array.isArray(item) && !('id' in item);
}

function idOf(item: unknown): unknown {
  return typeof item === 'object' && item !== null && 'id' in item ? (item as { id: unknown }).id : null;
}
