import type { Clock, Logger } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { EngineRunLimits } from "../config.js";
import type { EngineDb } from "../db/schema.js";
import type { EngineProviders } from "./run-pipeline.js";

export interface ReadingDeps {
  db: Kysely<EngineDb>;
}

export interface ChangingDeps extends ReadingDeps {
  clock: Clock;
}

export interface GeneratingDeps {
  providers: EngineProviders;
  limits: EngineRunLimits;
  logger: Logger;
}
