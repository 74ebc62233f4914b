/** The parts of a raw SSE body: the data of each event (parsed JSON) and the comment lines. */
export interface SseBody {
  events: unknown[];
  comments: string[];
}

export function parseSseBody(body: string): SseBody {
  const events: unknown[] = [];
  const comments: string[] = [];
  for (const block of body.split('\n\n')) {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice('data:'.length).trim());
    comments.push(...block.split('\n').filter((line) => line.startsWith(':')));
    if (data.length > 0) events.push(JSON.parse(data.join('\n')));
  }
  return { events, comments };
}

/** JSON read loosely, for assertions that reach deep into an answer. */
export interface LooseJson {
  [key: string]: LooseJson;
}

export async function readJson(response: Response): Promise<LooseJson> {
  return (await response.json()) as LooseJson;
}
