/**
 * The stored experiment request as GetExperiment carries it (PostgreSQL's text of its jsonb,
 * D321, which REST passes on) maps onto the ExperimentRequest message and back to exactly that
 * text, keys in jsonb order (decisions.md D348): every intake fixture, drafts too, on
 * PostgreSQL and PGlite.
 */
import { ExperimentRequestSchema } from "@petri/contracts/experiments";
import { exactRestMessage } from "@petri/contracts/rest-json";
import { clientIntakes, fullRequests, specialRequests, validRequests } from "@petri/fixtures";
import { describe, expect, it } from "vitest";

import { ENGINES, json, requester, experimentsOn } from "./support/harness.js";

/** The standard-template fixture with parameters the real catalogue's template takes. */
const standardTemplate = {
  ...specialRequests.standardTemplate,
  protocol: {
    ...specialRequests.standardTemplate.protocol,
    template_parameters: { highest_concentration_ug_ml: 32, readout: "visual", include_qc_strain: false },
  },
};

const fixtures = Object.entries({
  validRequests,
  fullRequests,
  specialRequests: { ...specialRequests, standardTemplate },
  clientIntakes,
}).flatMap(([set, requests]) =>
  Object.entries(requests).map(([name, request]) => [`${set}.${name}`, request] as const),
);

describe.each(ENGINES)("the stored request as the ExperimentRequest message on %s", (engine) => {
  const exp = experimentsOn(engine);

  it.each(fixtures)(
    "%s: the stored text, submitted and as a draft, fits the message exactly",
    async (_, body) => {
      const me = requester();
      for (const saveAsDraft of [false, true]) {
        const created = await exp.as(me).createExperiment({ requestJson: json(body), saveAsDraft });
        const { experiment } = await exp.as(me).getExperiment({ experimentId: created.experiment!.id });
        const stored = JSON.parse(experiment!.requestJson) as unknown;
        const message = exactRestMessage(ExperimentRequestSchema, stored, { keys: "jsonb" });
        expect(message, experiment!.requestJson).toBeDefined();
        // The service's own order is not the stored text's: only the jsonb order writes it back.
        expect(exactRestMessage(ExperimentRequestSchema, stored)).toBeUndefined();
      }
    },
  );
});
