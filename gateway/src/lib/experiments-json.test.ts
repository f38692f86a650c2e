import { type MessageInitShape, create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  ExperimentSchema,
  ExperimentStatus,
  ProposalCommentSchema,
  ProposalCostEstimateSchema,
  ProtocolProposalSchema,
} from "@petri/contracts/experiments";
import { describe, expect, it } from "vitest";
import { detailsJson } from "./experiments-json.js";
import { serialiseWithJsonTexts } from "./json-answer.js";

const PROPOSED = "2026-11-02T10:00:00.000Z";
const DECIDED = "2026-11-03T09:30:00.000Z";
const PROPOSAL_REST = {
  revision: 2,
  status: "changes_requested",
  protocol: { protocol_title: "Biofilm dispersal", steps: [{ order: 1, action: "stain" }] },
  note: "added a time point",
  proposed_by: "acc_staff",
  proposed_at: PROPOSED,
  decided_at: DECIDED,
  estimated_cost_cents: { low: 10_000, typical: 12_500, high: 15_000 },
  comments: [
    {
      revision: 2,
      kind: "changes_requested",
      author_account_id: "acc_req",
      author_role: "requester",
      text: "6 h too",
      at: DECIDED,
    },
  ],
};

const experiment = (
  fields: Pick<MessageInitShape<typeof ExperimentSchema>, "protocolProposal" | "protocolProposalJson">,
) =>
  create(ExperimentSchema, {
    id: "exp_1",
    status: ExperimentStatus.PENDING_REVIEW,
    createdAt: timestampFromDate(new Date(PROPOSED)),
    updatedAt: timestampFromDate(new Date(PROPOSED)),
    ...fields,
  });

const proposalOf = (message: ReturnType<typeof experiment>) =>
  (JSON.parse(serialiseWithJsonTexts(detailsJson(message))) as { protocol_proposal: unknown })
    .protocol_proposal;

describe("detailsJson's protocol_proposal", () => {
  it("reads the typed proposal as it read the JSON text of a service built before it", () => {
    const typed = create(ProtocolProposalSchema, {
      revision: 2,
      status: "changes_requested",
      protocolJson: JSON.stringify(PROPOSAL_REST.protocol),
      note: PROPOSAL_REST.note,
      proposedBy: "acc_staff",
      proposedAt: timestampFromDate(new Date(PROPOSED)),
      decidedAt: timestampFromDate(new Date(DECIDED)),
      estimatedCost: create(ProposalCostEstimateSchema, {
        lowCents: 10_000n,
        typicalCents: 12_500n,
        highCents: 15_000n,
      }),
      comments: [
        create(ProposalCommentSchema, {
          revision: 2,
          kind: "changes_requested",
          authorAccountId: "acc_req",
          authorRole: "requester",
          text: "6 h too",
          at: timestampFromDate(new Date(DECIDED)),
        }),
      ],
    });
    expect(proposalOf(experiment({ protocolProposal: typed }))).toEqual(PROPOSAL_REST);
    expect(proposalOf(experiment({ protocolProposalJson: JSON.stringify(PROPOSAL_REST) }))).toEqual(
      PROPOSAL_REST,
    );
  });

  it("is null when there is none, typed or not", () => {
    expect(proposalOf(experiment({}))).toBeNull();
  });

  it("gives an undecided proposal without a price nulls for both", () => {
    const typed = create(ProtocolProposalSchema, {
      revision: 1,
      status: "proposed",
      protocolJson: "{}",
      proposedAt: timestampFromDate(new Date(PROPOSED)),
    });
    expect(proposalOf(experiment({ protocolProposal: typed }))).toMatchObject({
      decided_at: null,
      estimated_cost_cents: null,
      protocol: {},
      comments: [],
    });
  });
});
