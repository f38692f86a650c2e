/**
 * Group commit for small statements that many callers make at once: a call waits while the
 * previous group's statement runs, then goes with every call that arrived meanwhile, in one
 * statement. A lone call goes at once (no timer, no added latency); under load the number of
 * statements falls to one per round trip instead of one per call.
 *
 * `run` gets the group's items in arrival order and returns one result per item, in the same
 * order. Each caller's promise settles with its group's statement: its result when the
 * statement succeeded, the statement's error when it failed (the same outcome as if it had
 * gone alone).
 */
export class GroupedCalls<Item, Result = void> {
  private waiting: Array<{ item: Item; resolve: (result: Result) => void; reject: (err: unknown) => void }> =
    [];
  private running = false;

  constructor(
    private readonly run: (items: Item[]) => Promise<Result[]>,
    private readonly maxGroup = 200,
  ) {}

  call(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.waiting.length > 0) {
        const group = this.waiting.splice(0, this.maxGroup);
        try {
          const results = await this.run(group.map((entry) => entry.item));
          group.forEach((entry, index) => entry.resolve(results[index]!));
        } catch (err) {
          for (const entry of group) entry.reject(err);
        }
      }
    } finally {
      this.running = false;
    }
  }
}

/**
 * A group's items as one array per field, position by position: what a statement that unnests
 * arrays (one row per item) takes as its parameters.
 */
export function columnsOf<Item, Key extends keyof Item>(
  items: readonly Item[],
  keys: readonly Key[],
): { [K in Key]: Array<Item[K]> } {
  const columns = {} as { [K in Key]: Array<Item[K]> };
  for (const key of keys) columns[key] = items.map((item) => item[key]);
  return columns;
}
