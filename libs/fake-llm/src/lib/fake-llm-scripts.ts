// Which scripted step answers a request: one shared list, taken in order by every request, and lists of
// their own for conversations told apart by a marker their requests carry (a task id in the prompt), so
// that several agents talking to one server at once each follow their own script.
import { httpError, type FakeLlmStep } from './fake-llm-script';

export class FakeLlmScripts {
  private readonly shared: FakeLlmStep[] = [];
  private readonly conversations = new Map<string, FakeLlmStep[]>();

  /** Appends steps to the shared list. */
  add(steps: readonly FakeLlmStep[]): void {
    this.shared.push(...steps);
  }

  /** Appends steps to the conversation whose requests contain `marker`. */
  addFor(marker: string, steps: readonly FakeLlmStep[]): void {
    if (marker.length === 0) throw new Error('fake-llm: a conversation needs a marker its requests contain');
    const list = this.conversations.get(marker) ?? [];
    list.push(...steps);
    this.conversations.set(marker, list);
  }

  /** Steps not yet taken, shared and of every conversation. */
  get pending(): number {
    let count = this.shared.length;
    for (const list of this.conversations.values()) count += list.length;
    return count;
  }

  /** Steps not yet taken by the conversation of `marker`. */
  pendingFor(marker: string): number {
    return this.conversations.get(marker)?.length ?? 0;
  }

  /**
   * The step for a request whose body is `text`: the next of the first conversation (in the order they were
   * scripted) whose marker it contains, else the next shared one; `fallback`, or a 400 naming what ran out,
   * when that list is used up. A conversation's request never takes a shared step.
   */
  next(text: string, fallback?: FakeLlmStep): FakeLlmStep {
    for (const [marker, list] of this.conversations) {
      if (text.includes(marker)) return list.shift() ?? fallback ?? httpError(400, { message: `fake-llm: the script of "${marker}" has no reply left` });
    }
    return this.shared.shift() ?? fallback ?? httpError(400, { message: 'fake-llm: the script has no reply left' });
  }
}
