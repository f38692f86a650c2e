/**
 * The one event this service publishes: HypothesisSaved, recorded in the transaction of every
 * change to a hypothesis (create, update, archive, a linked experiment) with the hypothesis as
 * it is afterwards. Its aggregate version is the hypothesis's, so a consumer keeping a view
 * takes only a newer one (the experiments service's hypothesis_views, D349).
 */
import { events } from "@petri/contracts";
import { recordEvent } from "@petri/events";
import { currentTraceparent } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { savedHypothesisMessage } from "../contract/hypothesis-message.js";
import type { HypothesesDb } from "../db/schema.js";
import type { Hypothesis } from "../domain/hypothesis.js";

export async function recordHypothesisSaved(
  trx: Kysely<HypothesesDb>,
  hypothesis: Hypothesis,
  now: Date,
): Promise<void> {
  const traceparent = currentTraceparent();
  await recordEvent(
    trx,
    events.hypotheses.hypothesisSaved,
    { hypothesis: savedHypothesisMessage(hypothesis) },
    {
      aggregateId: hypothesis.id,
      aggregateVersion: hypothesis.version,
      occurredAt: now,
      ...(traceparent ? { traceparent } : {}),
    },
  );
}
