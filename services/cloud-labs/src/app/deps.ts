import type { UnitOfWork } from "@petri/events";
import type { Clock } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { CloudLabsDb } from "../db/schema.js";

export interface ReadingDeps {
  db: Kysely<CloudLabsDb>;
}

export interface ChangingDeps extends ReadingDeps {
  clock: Clock;
  unitOfWork: UnitOfWork<CloudLabsDb>;
}
