/** Hypotheses as messages (petri.hypotheses.v1.Hypothesis): absent optional values are "". */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Hypothesis as HypothesisMessage, HypothesisSchema } from "@petri/contracts/hypotheses";
import type { Hypothesis } from "../domain/hypothesis.js";

const jsonText = (value: Record<string, unknown> | null) => (value === null ? "" : JSON.stringify(value));

export function hypothesisMessage(hypothesis: Hypothesis): HypothesisMessage {
  return create(HypothesisSchema, {
    id: hypothesis.id,
    ownerAccountId: hypothesis.ownerAccountId,
    title: hypothesis.title,
    statement: hypothesis.statement,
    nullHypothesis: hypothesis.nullHypothesis ?? "",
    experimentType: hypothesis.experimentType ?? "",
    status: hypothesis.status,
    intakeDraftJson: jsonText(hypothesis.intakeDraft),
    experimentsCount: hypothesis.experimentsCount,
    engineAgent: hypothesis.engineAgent ?? "",
    engineQuery: hypothesis.engineQuery ?? "",
    engineResponseJson: jsonText(hypothesis.engineResponse),
    sourceExperimentId: hypothesis.sourceExperimentId ?? "",
    version: BigInt(hypothesis.version),
    createdAt: timestampFromDate(hypothesis.createdAt),
    updatedAt: timestampFromDate(hypothesis.updatedAt),
  });
}

/**
 * The hypothesis as HypothesisSaved carries it: the message without the engine's response,
 * which may be large and which no consumer reads.
 */
export function savedHypothesisMessage(hypothesis: Hypothesis): HypothesisMessage {
  return hypothesisMessage({ ...hypothesis, engineResponse: null });
}
