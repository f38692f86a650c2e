import type { Clock } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { ExperimentsDb } from "../db/schema.js";
import type { EstimateRecord } from "../db/estimate-records.js";
import { parseJsonText } from "./intake.js";
import { priceRequest } from "./pricing.js";

/**
 * POST /estimate: prices a possibly partial request (missing parts take the type's reference
 * values) with the operator availability of the operator_eligibility projection: how many
 * operators pass every hard filter for the request's job now. The body must be JSON (422
 * otherwise); anything else it lacks is assumed, never an error.
 */
export function makeEstimateExperiment(deps: { db: Kysely<ExperimentsDb>; clock: Clock }) {
  return async function estimateExperiment(requestJson: string): Promise<EstimateRecord> {
    return priceRequest(deps.db, parseJsonText(requestJson), deps.clock.now());
  };
}
