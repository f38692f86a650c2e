import { InvalidStateError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import {
  type DesignState,
  ProtocolDesignStateError,
  acceptProposal,
  assertReviewApprovable,
  proposeProtocol,
  requestChanges,
  withAcceptedProtocol,
} from "./protocol-design.js";

const at = new Date("2026-03-02T10:00:00.000Z");
const design: DesignState = {
  status: "pending_review",
  reviewReasons: ["protocol_design_requested"],
  proposal: null,
};
const protocol = { protocol_title: "Biofilm dispersal", steps: [] };

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof ProtocolDesignStateError) {
      expect(error.kind).toBe("invalid_state");
      return error.code;
    }
    if (error instanceof InvalidStateError) return error.code;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("protocol design", () => {
  it("propose -> ask for changes -> propose again -> accept", () => {
    const first = proposeProtocol(design, { protocol, note: "first draft", staffAccountId: "usr_staff", at });
    expect(first.proposal).toMatchObject({
      revision: 1,
      status: "proposed",
      note: "first draft",
      decided_at: null,
    });
    expect(first.comment).toMatchObject({ revision: 1, kind: "proposed", author_role: "staff" });

    const later = new Date(at.getTime() + 60_000);
    const changes = requestChanges(
      { ...design, proposal: first.proposal },
      { requesterAccountId: "usr_req", comments: "use 6 h", at: later },
    );
    expect(changes.proposal).toMatchObject({
      revision: 1,
      status: "changes_requested",
      decided_at: later.toISOString(),
    });
    expect(changes.comment).toMatchObject({
      kind: "changes_requested",
      text: "use 6 h",
      author_role: "requester",
    });
    // Nothing to accept until staff propose again.
    expect(
      codeOf(() =>
        acceptProposal({ ...design, proposal: changes.proposal }, { requesterAccountId: "usr_req", at }),
      ),
    ).toBe("no_pending_proposal");

    const second = proposeProtocol(
      { ...design, proposal: changes.proposal },
      { protocol: { ...protocol, steps: [1] }, note: "", staffAccountId: "usr_staff", at },
    );
    expect(second.proposal).toMatchObject({ revision: 2, status: "proposed" });
    const accepted = acceptProposal(
      { ...design, proposal: second.proposal },
      { requesterAccountId: "usr_req", at },
    );
    expect(accepted.proposal).toMatchObject({ revision: 2, status: "accepted" });
    expect(accepted.comment.kind).toBe("accepted");
  });

  it("refuses proposals for requests that did not ask for a design, and outside pending_review", () => {
    const plain: DesignState = {
      status: "pending_review",
      reviewReasons: ["custom_protocol"],
      proposal: null,
    };
    const input = { protocol, note: "", staffAccountId: "usr_staff", at };
    expect(codeOf(() => proposeProtocol(plain, input))).toBe("protocol_design_not_requested");
    expect(codeOf(() => proposeProtocol({ ...design, status: "open" }, input))).toBe("invalid_state");
    expect(codeOf(() => requestChanges(design, { requesterAccountId: "u", comments: "x", at }))).toBe(
      "no_pending_proposal",
    );
  });

  it("staff approval refuses a design request but approves other reviews", () => {
    expect(codeOf(() => assertReviewApprovable(design))).toBe("protocol_proposal_required");
    expect(() =>
      assertReviewApprovable({
        status: "pending_review",
        reviewReasons: ["custom_protocol"],
        proposal: null,
      }),
    ).not.toThrow();
    expect(codeOf(() => assertReviewApprovable({ ...design, status: "open", reviewReasons: [] }))).toBe(
      "invalid_state",
    );
  });

  it("makes the accepted proposal the request's custom protocol, dropping the brief", () => {
    const request = {
      experiment_type: "CUSTOM",
      custom_protocol: { protocol_title: "old" },
      protocol: { type: "protocol_design_requested", protocol_design_brief: "please design" },
      title: "T",
    };
    expect(withAcceptedProtocol(request, protocol)).toEqual({
      experiment_type: "CUSTOM",
      title: "T",
      protocol: { type: "custom", custom_protocol: protocol },
    });
    expect(request.protocol.protocol_design_brief).toBe("please design");
  });

  it("takes the materials a proposal names as the request's materials list", () => {
    const request = {
      materials_provided: [{ name: "old" }],
      protocol: { type: "protocol_design_requested" },
    };
    const materials = [{ name: "Crystal violet" }];
    expect(withAcceptedProtocol(request, { ...protocol, materials })).toEqual({
      materials_provided: materials,
      protocol: { type: "custom", custom_protocol: protocol },
    });
    expect(withAcceptedProtocol(request, protocol).materials_provided).toEqual([{ name: "old" }]);
  });
});
