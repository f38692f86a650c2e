import { createRoute, z } from "@hono/zod-openapi";
import { CAPACITY_LEVELS } from "@petri/contracts/vocabulary";
import { authenticatedAccess } from "../../lib/access.js";
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from "../../lib/catalog.js";
import { jsonResponse, lookupErrors } from "../../lib/openapi.js";
import { queryInt } from "../../lib/query.js";
import { ExperimentIdParamsSchema } from "../experiments/experiments.schemas.js";
import { MatchComponentsSchema } from "../operator-jobs/operator-jobs.routes.js";
import { EXPERIMENT_NOT_FOUND } from "../../lib/experiment-errors.js";

export const LabMatchSchema = z
  .object({
    operator_id: z.string().openapi({ example: "op_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    lab_name: z.string(),
    score: z.number().openapi({ description: "Match score, 0 to 100" }),
    components: MatchComponentsSchema,
    eligible: z
      .boolean()
      .openapi({ description: "True when the lab passes every hard filter and may claim it" }),
    failed_filters: z.array(z.string()).optional().openapi({
      description:
        "The hard filters an ineligible lab fails, e.g. bsl, equipment, capacity (shown to staff; absent for eligible labs)",
    }),
  })
  .openapi("LabMatch");

export const LabMatchesSchema = z
  .object({
    labs: z.array(LabMatchSchema).openapi({ description: "Best match first" }),
    operator_availability: z.enum(CAPACITY_LEVELS).openapi({
      description:
        "high (many qualified labs), medium (some), low (few, may take longer), none (no lab matches)",
    }),
  })
  .openapi("LabMatches");

export const MatchesQuerySchema = z.object({
  limit: queryInt(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT).openapi({ description: "How many labs to list" }),
});

export const rankLabs = createRoute({
  method: "get",
  path: "/experiments/{experiment_id}/matches",
  operationId: "rankLabs",
  tags: ["Experiments"],
  summary: "The labs that match an experiment, best first (its requester and staff)",
  description:
    "Hard filters first (verified competency, biosafety level, material approvals, equipment, capacity, vacations), then a weighted score. Requesters see eligible labs; staff also see ineligible ones with the filters they fail.",
  ...authenticatedAccess,
  request: { params: ExperimentIdParamsSchema, query: MatchesQuerySchema },
  responses: {
    200: jsonResponse("The ranked labs", LabMatchesSchema),
    ...lookupErrors(EXPERIMENT_NOT_FOUND),
  },
});
