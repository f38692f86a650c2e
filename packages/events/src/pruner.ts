/**
 * Retention pruning, written once: a service's runtime registers what may be deleted (each
 * a table and its cut-off), and one background loop on the service clock deletes old rows in
 * bounded batches, so no statement holds its locks long and the service's own traffic goes
 * between them.
 */
import { BackgroundLoop, type Clock, type Logger, type StepResult } from "@petri/service-kit";

export interface PruneTarget {
  /** What is pruned, for logs and counts, e.g. "inbox". */
  name: string;
  /** How long a row is kept; rows older than now - retentionMs may go. */
  retentionMs: number;
  /** Deletes at most `limit` rows older than `cutoff`; returns how many it deleted. */
  deleteBatch(cutoff: Date, limit: number): Promise<number>;
}

export interface PrunerOptions {
  /** Loop name in logs, e.g. "experiments-pruner". */
  name: string;
  clock: Clock;
  logger: Logger;
  intervalMs: number;
  batchSize: number;
}

export class Pruner {
  private readonly targets: PruneTarget[] = [];
  private readonly loop: BackgroundLoop;
  private nextPassAt: Date | undefined;

  constructor(private readonly options: PrunerOptions) {
    this.loop = new BackgroundLoop({
      name: options.name,
      clock: options.clock,
      logger: options.logger,
      // The pass is due on the service clock; the real-time poll only backs it up, no oftener.
      pollMs: options.intervalMs,
      minPollMs: options.intervalMs,
      step: () => this.step(),
    });
  }

  register(target: PruneTarget): void {
    this.targets.push(target);
  }

  /** Deletes everything past retention now, batch by batch; returns the rows deleted per target. */
  async pruneAll(): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    for (const target of this.targets) {
      let total = 0;
      for (;;) {
        const n = await this.deleteBatch(target);
        total += n;
        if (n < this.options.batchSize) break;
      }
      deleted[target.name] = total;
    }
    return deleted;
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  running(): boolean {
    return this.loop.running();
  }

  /** One batch per target; again at once while some target filled its batch. */
  private async step(): Promise<StepResult> {
    const now = this.options.clock.now();
    if (this.nextPassAt && now < this.nextPassAt) return { again: false, dueAt: this.nextPassAt };
    let more = false;
    const deleted: Record<string, number> = {};
    for (const target of this.targets) {
      const n = await this.deleteBatch(target);
      if (n > 0) deleted[target.name] = n;
      if (n >= this.options.batchSize) more = true;
    }
    if (Object.keys(deleted).length > 0) this.options.logger.debug({ deleted }, "pruned rows past retention");
    if (more) return { again: true };
    this.nextPassAt = new Date(now.getTime() + this.options.intervalMs);
    return { again: false, dueAt: this.nextPassAt };
  }

  private deleteBatch(target: PruneTarget): Promise<number> {
    const cutoff = new Date(this.options.clock.now().getTime() - target.retentionMs);
    return target.deleteBatch(cutoff, this.options.batchSize);
  }
}
