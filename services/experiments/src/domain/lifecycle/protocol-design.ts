/**
 * The protocol-design step of a request with protocol.type = protocol_design_requested
 * (review reason "protocol_design_requested"). Pure rules over the experiment's state:
 *
 *   staff propose (revision n)          -> proposal "proposed", status stays pending_review
 *   requester asks for changes          -> proposal "changes_requested", comments recorded
 *   staff propose again (revision n+1)  -> proposal "proposed" (replaces the previous one)
 *   requester accepts                   -> proposal "accepted", the experiment opens and the
 *                                          proposed protocol becomes the request's protocol
 *
 * Staff cannot simply approve a design request: it has no protocol until one is accepted.
 */
import { DomainError } from "@petri/service-kit";
import type { ExperimentStatusName } from "@petri/contracts/vocabulary";
import type { ProposalAuthorRole, ProposalStep } from "@petri/contracts";
import type { ReviewReason } from "../contracts.js";
import { assertCan } from "./transitions.js";

/**
 * A protocol-design step that the experiment's design state does not allow: 409 (wrong
 * state, FailedPrecondition) with its own public code and details.status.
 */
export class ProtocolDesignStateError extends DomainError {
  readonly kind = "invalid_state" as const;
  constructor(
    message: string,
    private readonly publicCode:
      "protocol_design_not_requested" | "no_pending_proposal" | "protocol_proposal_required",
    details: Record<string, unknown>,
  ) {
    super(message, details);
  }
  override get code(): string {
    return this.publicCode;
  }
}

export const PROTOCOL_DESIGN_REASON: ReviewReason = "protocol_design_requested";

export type ProposalStatus = ProposalStep;

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export type ProtocolProposal = {
  revision: number;
  status: ProposalStatus;
  /** The proposed protocol, in the shape of a request's protocol.custom_protocol. */
  protocol: JsonObject;
  note: string;
  proposed_by: string;
  /** ISO 8601. */
  proposed_at: string;
  /** When the requester accepted it or asked for changes (ISO 8601), else null. */
  decided_at: string | null;
  /** The price of the experiment with this protocol, in cents (what accepting would hold). */
  estimated_cost_cents: { low: number; typical: number; high: number } | null;
};

export type ProposalComment = {
  revision: number;
  kind: "proposed" | "changes_requested" | "accepted";
  author_account_id: string;
  author_role: ProposalAuthorRole;
  text: string;
  /** ISO 8601. */
  at: string;
};

export interface DesignState {
  status: ExperimentStatusName;
  reviewReasons: readonly string[];
  proposal: ProtocolProposal | null;
}

export interface DesignChange {
  proposal: ProtocolProposal;
  comment: ProposalComment;
}

export function isDesignRequest(reviewReasons: readonly string[]): boolean {
  return reviewReasons.includes(PROTOCOL_DESIGN_REASON);
}

function assertDesignRequest(state: DesignState): void {
  if (!isDesignRequest(state.reviewReasons))
    throw new ProtocolDesignStateError(
      "this experiment did not request a protocol design",
      "protocol_design_not_requested",
      { status: state.status },
    );
}

function pendingProposal(state: DesignState): ProtocolProposal {
  if (!state.proposal || state.proposal.status !== "proposed")
    throw new ProtocolDesignStateError(
      "there is no protocol proposal awaiting a decision",
      "no_pending_proposal",
      {
        status: state.status,
        proposal_status: state.proposal?.status ?? "none",
      },
    );
  return state.proposal;
}

/** Staff attach a proposal (a new revision; it supersedes any earlier one). */
export function proposeProtocol(
  state: DesignState,
  input: {
    protocol: JsonObject;
    note: string;
    staffAccountId: string;
    at: Date;
    estimatedCostCents?: { low: number; typical: number; high: number };
  },
): DesignChange {
  assertCan("propose_protocol", state.status);
  assertDesignRequest(state);
  const revision = (state.proposal?.revision ?? 0) + 1;
  const at = input.at.toISOString();
  return {
    proposal: {
      revision,
      status: "proposed",
      protocol: input.protocol,
      note: input.note,
      proposed_by: input.staffAccountId,
      proposed_at: at,
      decided_at: null,
      estimated_cost_cents: input.estimatedCostCents ?? null,
    },
    comment: {
      revision,
      kind: "proposed",
      author_account_id: input.staffAccountId,
      author_role: "staff",
      text: input.note,
      at,
    },
  };
}

/** The requester accepts the pending proposal; the experiment then opens. */
export function acceptProposal(
  state: DesignState,
  input: { requesterAccountId: string; at: Date },
): DesignChange {
  assertCan("accept_protocol", state.status);
  assertDesignRequest(state);
  const current = pendingProposal(state);
  const at = input.at.toISOString();
  return {
    proposal: { ...current, status: "accepted", decided_at: at },
    comment: {
      revision: current.revision,
      kind: "accepted",
      author_account_id: input.requesterAccountId,
      author_role: "requester",
      text: "",
      at,
    },
  };
}

/** The requester asks for changes to the pending proposal; staff may then propose again. */
export function requestChanges(
  state: DesignState,
  input: { requesterAccountId: string; comments: string; at: Date },
): DesignChange {
  assertCan("request_protocol_changes", state.status);
  assertDesignRequest(state);
  const current = pendingProposal(state);
  const at = input.at.toISOString();
  return {
    proposal: { ...current, status: "changes_requested", decided_at: at },
    comment: {
      revision: current.revision,
      kind: "changes_requested",
      author_account_id: input.requesterAccountId,
      author_role: "requester",
      text: input.comments,
      at,
    },
  };
}

/** Staff approval opens a reviewed request; a design request opens only by acceptance. */
export function assertReviewApprovable(state: DesignState): void {
  assertCan("approve_review", state.status);
  if (isDesignRequest(state.reviewReasons))
    throw new ProtocolDesignStateError(
      "a protocol design request opens when the requester accepts a proposed protocol",
      "protocol_proposal_required",
      { status: state.status },
    );
}

/**
 * The request with an accepted proposal as its protocol: protocol.type becomes "custom" and
 * the proposal its custom protocol; the design brief is dropped (it stays in the proposal
 * history). A proposal may carry `materials` (the materials list the designed protocol
 * uses, in the shape of protocol.materials): they replace the request's materials list.
 * Every other field is kept.
 */
export function withAcceptedProtocol(request: JsonObject, proposal: JsonObject): JsonObject {
  const { materials, ...customProtocol } = proposal;
  const current = request.protocol;
  const protocol: JsonObject =
    current !== null && typeof current === "object" && !Array.isArray(current) ? { ...current } : {};
  delete protocol.protocol_design_brief;
  // The stored form keeps a custom protocol (and the materials) at the top level.
  const rest = { ...request };
  delete rest.custom_protocol;
  if (Array.isArray(materials)) {
    delete protocol.materials;
    rest.materials_provided = materials;
  }
  return { ...rest, protocol: { ...protocol, type: "custom", custom_protocol: customProtocol } };
}
