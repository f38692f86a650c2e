/** What the per-event handler files share. */
import type { Message } from "@bufbuild/protobuf";
import type { Experiment } from "@petri/contracts/experiments";
import type { EventContext } from "@petri/events";
import type { Kysely, Transaction } from "kysely";
import type { LedgerDeps } from "../app/post-to-ledger.js";
import { projectJob } from "../app/project-job.js";
import type { MarketplaceDb } from "../db/schema.js";
import { experimentOf, jobChangeOf } from "./experiment-change.js";

export type EventDeps = LedgerDeps;

/** A handler of one consumer (jobs or ledger) for one event type. */
export type Handler<P extends Message> = (ctx: EventContext<P>, deps: EventDeps) => Promise<void>;

/** The consumer's transaction (the runner opens it and records the inbox row in it). */
export function transactionOf(ctx: EventContext): Transaction<MarketplaceDb> {
  return ctx.trx as unknown as Transaction<MarketplaceDb>;
}

/** Every experiments event updates the job projection the same way: from the experiment it carries. */
export async function projectExperiment<P extends Message & { experiment?: Experiment | undefined }>(
  ctx: EventContext<P>,
  deps: EventDeps,
): Promise<Experiment> {
  const experiment = experimentOf(ctx.payload, ctx.envelope);
  await projectJob(ctx.trx as Kysely<MarketplaceDb>, jobChangeOf(experiment, ctx.envelope), deps.clock.now());
  return experiment;
}
