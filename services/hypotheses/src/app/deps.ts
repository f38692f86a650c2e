import type { UnitOfWork } from "@petri/events";
import type { Kysely } from "kysely";
import type { HypothesesDb } from "../db/schema.js";

/** What a use case that only reads needs. */
export interface ReadingDeps {
  db: Kysely<HypothesesDb>;
}

/** What a use case that changes data needs. */
export interface ChangingDeps extends ReadingDeps {
  clock: { now(): Date };
  /** The transactions of changes that span several statements. */
  unitOfWork: UnitOfWork<HypothesesDb>;
}
