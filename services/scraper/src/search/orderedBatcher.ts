/**
 * Results that come back in any order, committed in the order their work started, in batches, one
 * commit at a time. A result waits until every result before it is in (`ahead`), then joins the
 * pending batch; `flush` commits the pending batch after the commit under way. A commit that fails
 * puts its batch back in front, to be tried with the next flush, unless `onFailure` says to drop it.
 */
export class OrderedBatcher<T> {
  private readonly ahead = new Map<number, T>();
  private readonly pending: T[] = [];
  private tickets = 0;
  private nextInOrder = 0;
  private committing: Promise<void> = Promise.resolve();

  constructor(
    private readonly commit: (batch: T[]) => Promise<void>,
    /** Told of a failed commit; answers whether to keep the batch for the next flush. */
    private readonly onFailure: (error: unknown) => boolean,
  ) {}

  /** The place in the order of a result yet to come: take one when its work starts. */
  ticket(): number {
    return this.tickets++;
  }

  /** The result of `ticket`: it, and the results after it that are in already, join the pending batch. */
  settle(ticket: number, result: T): void {
    this.ahead.set(ticket, result);
    for (let next = this.ahead.get(this.nextInOrder); next !== undefined; next = this.ahead.get(this.nextInOrder)) {
      this.pending.push(next);
      this.ahead.delete(this.nextInOrder++);
    }
  }

  /** Results neither committed nor being committed (pending, or waiting on an earlier one) that match. */
  waiting(matches: (result: T) => boolean): number {
    let count = 0;
    for (const result of this.pending) if (matches(result)) count++;
    for (const result of this.ahead.values()) if (matches(result)) count++;
    return count;
  }

  /** Whether a pending result matches. */
  someReady(matches: (result: T) => boolean): boolean {
    return this.pending.some(matches);
  }

  /** The work stopped and some results will never come: those after them join the batch, still in order. */
  releaseAhead(): void {
    this.pending.push(...[...this.ahead.entries()].sort(([a], [b]) => a - b).map(([, result]) => result));
    this.ahead.clear();
  }

  /** Drops everything not yet committed (nothing of it may be committed any more). */
  drop(): void {
    this.pending.length = 0;
    this.ahead.clear();
  }

  /** Commits what is pending once the commit under way is done; resolves when that commit is. */
  flush(): Promise<void> {
    this.committing = this.committing.then(async () => {
      if (!this.pending.length) return;
      const batch = this.pending.splice(0);
      try {
        await this.commit(batch);
      } catch (error) {
        if (this.onFailure(error)) this.pending.unshift(...batch);
      }
    });
    return this.committing;
  }
}
