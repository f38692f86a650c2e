/**
 * Staff review of pending_review requests (queue, approve -> open, reject -> cancelled with a
 * full refund) and the protocol-design step (staff propose; the requester asks for changes
 * or accepts, which opens the experiment with the proposal as its protocol).
 */
import { Code } from "@connectrpc/connect";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type Experiment, ExperimentStatus } from "@petri/contracts/experiments";
import { describe, expect, it } from "vitest";
import { validRequests } from "@petri/fixtures";
import {
  ENGINES,
  SYSTEM,
  bodies,
  experimentsOn,
  failure,
  json,
  jump,
  outboxEvents,
  requester,
  staff,
} from "./support/harness.js";

/** A complete custom protocol (from the CUSTOM fixture) plus the materials it uses. */
const PROPOSAL = {
  protocol_title: "Biofilm dispersal, crystal violet",
  protocol_version: "1.0",
  ...(validRequests.CUSTOM as { custom_protocol: Record<string, unknown> }).custom_protocol,
  materials: [{ name: "Crystal violet 0.1% (w/v)" }],
};

/**
 * The proposal in REST's words, read from the typed message (D359); the deprecated JSON text,
 * still written for older gateways, must say exactly the same.
 */
function proposalOf(experiment: Experiment) {
  const proposal = experiment.protocolProposal;
  if (!proposal) throw new Error("the experiment has no typed proposal");
  const iso = (at: Parameters<typeof timestampDate>[0] | undefined) =>
    at ? timestampDate(at).toISOString() : null;
  const cost = proposal.estimatedCost;
  const rest = {
    revision: proposal.revision,
    status: proposal.status,
    protocol: JSON.parse(proposal.protocolJson) as Record<string, unknown>,
    note: proposal.note,
    proposed_by: proposal.proposedBy,
    proposed_at: iso(proposal.proposedAt),
    decided_at: iso(proposal.decidedAt),
    estimated_cost_cents: cost
      ? { low: Number(cost.lowCents), typical: Number(cost.typicalCents), high: Number(cost.highCents) }
      : null,
    comments: proposal.comments.map((comment) => ({
      revision: comment.revision,
      kind: comment.kind,
      author_account_id: comment.authorAccountId,
      author_role: comment.authorRole,
      text: comment.text,
      at: iso(comment.at),
    })),
  };
  expect(rest).toEqual(JSON.parse(experiment.protocolProposalJson));
  return rest;
}

describe.each(ENGINES)("staff review and protocol design on %s", (engine) => {
  const exp = experimentsOn(engine);
  const admin = staff();

  it("lists pending_review oldest first for staff only, and approval opens the request", async () => {
    const me = requester();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      await jump(exp, 1_000);
      ids.push((await exp.as(me).createExperiment({ requestJson: json(bodies.custom()) })).experiment!.id);
    }
    await exp.as(me).createExperiment({ requestJson: json(bodies.open()) }); // open: not in the queue

    const queue: string[] = [];
    let cursor = "";
    for (;;) {
      const page = await exp.as(admin).listReviewQueue({ limit: 2, cursor });
      queue.push(...page.experiments.map((e) => e.id));
      if (!page.hasMore) break;
      cursor = page.nextCursor;
    }
    const mine = queue.filter((id) => ids.includes(id));
    expect(mine).toEqual(ids);

    for (const who of [me, { ...me, role: "operator" as const }, SYSTEM]) {
      expect((await failure(exp.as(who).listReviewQueue({}))).code).toBe(Code.PermissionDenied);
      expect((await failure(exp.as(who).approveReview({ experimentId: ids[0]! }))).code).toBe(
        Code.PermissionDenied,
      );
      expect((await failure(exp.as(who).rejectReview({ experimentId: ids[0]!, reason: "x" }))).code).toBe(
        Code.PermissionDenied,
      );
    }

    const { experiment: approved } = await exp
      .as(admin)
      .approveReview({ experimentId: ids[0]!, note: "looks fine" });
    expect(approved).toMatchObject({ status: ExperimentStatus.OPEN, version: 2n });
    const events = await outboxEvents(exp.db, ids[0]!);
    expect(events.map((e) => [e.subject, e.version])).toEqual([
      ["petri.experiments.experiment_submitted", 1],
      ["petri.experiments.experiment_opened", 2],
    ]);
    const row = await exp.db
      .selectFrom("experiments")
      .selectAll()
      .where("id", "=", ids[0]!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ reviewed_by: admin.accountId, review_note: "looks fine" });
    expect((await exp.as(admin).listReviewQueue({ limit: 100 })).experiments.map((e) => e.id)).not.toContain(
      ids[0],
    );

    // Approving twice, or an open request, is a wrong state.
    const twice = await failure(exp.as(admin).approveReview({ experimentId: ids[0]! }));
    expect(twice).toMatchObject({ code: Code.FailedPrecondition, reason: "invalid_state" });
    expect(twice.details).toEqual({ status: "open", allowed_from: ["pending_review"] });
    expect(
      (await failure(exp.as(admin).approveReview({ experimentId: "exp_0000000000aaaaaaaaaaaaaaaa" }))).code,
    ).toBe(Code.NotFound);
  });

  it("rejection cancels with the reason and a full refund of the hold", async () => {
    const { experiment } = await exp.as(requester()).createExperiment({ requestJson: json(bodies.custom()) });
    expect(
      (await failure(exp.as(admin).rejectReview({ experimentId: experiment!.id, reason: " " }))).code,
    ).toBe(Code.InvalidArgument);
    const { experiment: rejected } = await exp
      .as(admin)
      .rejectReview({ experimentId: experiment!.id, reason: "the protocol is incomplete" });
    expect(rejected!.status).toBe(ExperimentStatus.CANCELLED);
    expect(rejected!.cancellation).toMatchObject({
      reason: "the protocol is incomplete",
      refundAmountCents: experiment!.holdAmountCents,
      operatorCompensationCents: 0n,
      refundStatus: "full",
    });
    const last = (await outboxEvents(exp.db, experiment!.id)).at(-1)!;
    expect(last.subject).toBe("petri.experiments.experiment_cancelled");
    expect(last.payload.refundAmountCents).toBe(experiment!.holdAmountCents);
  });

  it("protocol design: propose -> ask for changes -> propose again -> accept opens with the protocol", async () => {
    const me = requester();
    const { experiment } = await exp.as(me).createExperiment({ requestJson: json(bodies.design()) });
    const id = experiment!.id;
    expect(experiment!.status).toBe(ExperimentStatus.PENDING_REVIEW);
    expect(experiment!.reviewReasons).toContain("protocol_design_requested");

    // Staff cannot just approve a design request; the requester has nothing to accept yet.
    expect((await failure(exp.as(admin).approveReview({ experimentId: id }))).reason).toBe(
      "protocol_proposal_required",
    );
    expect((await failure(exp.as(me).acceptProtocolProposal({ experimentId: id }))).reason).toBe(
      "no_pending_proposal",
    );
    // Requesters cannot propose; a proposal that is not a complete protocol is a 422.
    expect(
      (await failure(exp.as(me).proposeProtocol({ experimentId: id, protocolJson: json(PROPOSAL) }))).code,
    ).toBe(Code.PermissionDenied);
    const incomplete = await failure(
      exp
        .as(admin)
        .proposeProtocol({ experimentId: id, protocolJson: json({ protocol_title: "just a title" }) }),
    );
    expect(incomplete.code).toBe(Code.InvalidArgument);
    expect(
      (await failure(exp.as(admin).proposeProtocol({ experimentId: id, protocolJson: "[]" }))).code,
    ).toBe(Code.InvalidArgument);

    const first = await exp
      .as(admin)
      .proposeProtocol({ experimentId: id, protocolJson: json(PROPOSAL), note: "first version" });
    expect(first.experiment).toMatchObject({ status: ExperimentStatus.PENDING_REVIEW, version: 2n });
    const proposal1 = proposalOf(first.experiment!);
    expect(proposal1).toMatchObject({
      revision: 1,
      status: "proposed",
      note: "first version",
      proposed_by: admin.accountId,
    });
    expect(proposal1.estimated_cost_cents?.typical).toBeGreaterThan(0);
    expect(proposal1.comments).toEqual([expect.objectContaining({ kind: "proposed", author_role: "staff" })]);

    const changes = await exp
      .as(me)
      .requestProtocolChanges({ experimentId: id, comments: "please add a 6 h time point" });
    const proposal1b = proposalOf(changes.experiment!);
    expect(proposal1b.status).toBe("changes_requested");
    expect(proposal1b.comments.at(-1)).toMatchObject({
      kind: "changes_requested",
      text: "please add a 6 h time point",
      author_account_id: me.accountId,
    });
    expect(changes.experiment!.status).toBe(ExperimentStatus.PENDING_REVIEW);
    expect((await failure(exp.as(me).acceptProtocolProposal({ experimentId: id }))).reason).toBe(
      "no_pending_proposal",
    );
    expect((await failure(exp.as(me).requestProtocolChanges({ experimentId: id, comments: "" }))).code).toBe(
      Code.InvalidArgument,
    );

    const second = await exp.as(admin).proposeProtocol({
      experimentId: id,
      protocolJson: json({ ...PROPOSAL, protocol_version: "1.1" }),
      note: "added the time point",
    });
    expect(proposalOf(second.experiment!)).toMatchObject({ revision: 2, status: "proposed" });
    expect(JSON.parse(second.experiment!.protocolProposal!.protocolJson)).toEqual({
      ...PROPOSAL,
      protocol_version: "1.1",
    });
    // Other staff cannot accept for the requester.
    expect((await failure(exp.as(staff()).acceptProtocolProposal({ experimentId: id }))).code).toBe(
      Code.PermissionDenied,
    );

    const { experiment: opened } = await exp.as(me).acceptProtocolProposal({ experimentId: id });
    expect(opened!.status).toBe(ExperimentStatus.OPEN);
    const request = JSON.parse(opened!.requestJson) as Record<string, any>;
    expect(request.protocol.type).toBe("custom");
    expect(request.protocol.protocol_design_brief).toBeUndefined();
    expect(request.custom_protocol.protocol_version).toBe("1.1");
    expect(request.materials_provided).toEqual([
      expect.objectContaining({ name: "Crystal violet 0.1% (w/v)" }),
    ]);
    expect(opened!.holdAmountCents).toBe(opened!.estimate!.costTypicalCents);
    expect(proposalOf(opened!)).toMatchObject({ revision: 2, status: "accepted" });
    expect(proposalOf(opened!).decided_at).toEqual(expect.any(String));

    const events = await outboxEvents(exp.db, id);
    expect(events.map((e) => [e.subject, e.version])).toEqual([
      ["petri.experiments.experiment_submitted", 1],
      ["petri.experiments.protocol_proposed", 2],
      ["petri.experiments.protocol_proposed", 4],
      ["petri.experiments.experiment_updated", 5],
      ["petri.experiments.experiment_opened", 5],
    ]);
    expect(events[3]!.payload.holdAmountCents).toBe(opened!.holdAmountCents);
    expect(JSON.parse(events[1]!.payload.experiment.protocolProposalJson).revision).toBe(1);
    expect(events[1]!.payload.experiment.protocolProposal.revision).toBe(1);

    // Once open, no more proposals.
    const late = await failure(
      exp.as(admin).proposeProtocol({ experimentId: id, protocolJson: json(PROPOSAL) }),
    );
    expect(late).toMatchObject({ code: Code.FailedPrecondition, reason: "invalid_state" });
  });

  it("refuses a proposal for a request that did not ask for a design", async () => {
    const { experiment } = await exp.as(requester()).createExperiment({ requestJson: json(bodies.custom()) });
    const refused = await failure(
      exp.as(admin).proposeProtocol({ experimentId: experiment!.id, protocolJson: json(PROPOSAL) }),
    );
    expect(refused).toMatchObject({ code: Code.FailedPrecondition, reason: "protocol_design_not_requested" });
  });
});
