// The methods the SDK's JSON-RPC transport handlers serve (their switch statements, which it does not
// export), by protocol version: v0.3 (LegacyJsonRpcTransportHandler) and v1.0 (JsonRpcTransportHandler).
const V03_METHODS = new Set([
  'message/send',
  'message/stream',
  'tasks/get',
  'tasks/cancel',
  'tasks/resubscribe',
  'tasks/pushNotificationConfig/set',
  'tasks/pushNotificationConfig/get',
  'tasks/pushNotificationConfig/list',
  'tasks/pushNotificationConfig/delete',
  'agent/getAuthenticatedExtendedCard',
]);
const V1_METHODS = new Set([
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'SubscribeToTask',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
  'GetExtendedAgentCard',
]);

/**
 * The call as the SDK's handler should see it. The handlers check `params` before they look the method
 * up, so an unknown method without params would get -32602 (invalid params) instead of -32601 (method
 * not found): an unknown method goes on with empty params, and the handler's own -32601 answers it.
 */
export function withMethodFirst(body: Record<string, unknown>, legacy: boolean): Record<string, unknown> {
  const method = body['method'];
  if (typeof method !== 'string' || (legacy ? V03_METHODS : V1_METHODS).has(method)) return body;
  return { ...body, params: {} };
}
