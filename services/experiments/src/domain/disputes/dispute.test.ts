import { ConflictError, InvalidStateError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { EXPERIMENT_STATUSES } from "@petri/contracts/vocabulary";
import { DISPUTE_WINDOW_DAYS, assertDisputable, disputeClaim, disputeWindowClosesAt } from "./dispute.js";
import { refusedFields } from "../../../test/support/validation.js";

const valid = {
  reason: "results_incomplete",
  description: "The raw plate reads for replicate 3 are missing.",
  evidenceUrls: [] as string[],
};

describe("dispute claims", () => {
  it("takes one of the five docs/api.md reasons and a trimmed description of 20 to 5,000 characters", () => {
    expect(disputeClaim(valid)).toEqual({ ...valid, evidenceUrls: [] });
    for (const reason of ["results_incorrect", "protocol_not_followed", "documentation_insufficient"])
      expect(disputeClaim({ ...valid, reason }).reason).toBe(reason);
    expect(refusedFields(() => disputeClaim({ ...valid, reason: "unhappy" }))).toEqual(["reason"]);
    expect(refusedFields(() => disputeClaim({ ...valid, description: "too short, sorry" }))).toEqual([
      "description",
    ]);
    expect(refusedFields(() => disputeClaim({ ...valid, description: "x".repeat(5001) }))).toEqual([
      "description",
    ]);
    expect(refusedFields(() => disputeClaim({ ...valid, reason: "", description: "" }))).toEqual([
      "reason",
      "description",
    ]);
  });

  it("needs at least 50 characters for reason other", () => {
    const detailed = "The lab used a different strain than the one in the protocol.";
    expect(disputeClaim({ ...valid, reason: "other", description: detailed }).reason).toBe("other");
    expect(
      refusedFields(() => disputeClaim({ ...valid, reason: "other", description: "x".repeat(49) })),
    ).toEqual(["description"]);
  });

  it("takes at most 10 https evidence URLs of at most 2,000 characters, without duplicates", () => {
    const url = "https://evidence.example.org/plate-3.png";
    expect(disputeClaim({ ...valid, evidenceUrls: [url, ` ${url} `] }).evidenceUrls).toEqual([url]);
    expect(refusedFields(() => disputeClaim({ ...valid, evidenceUrls: Array(11).fill(url) }))).toEqual([
      "evidence_urls",
    ]);
    expect(
      refusedFields(() =>
        disputeClaim({
          ...valid,
          evidenceUrls: [
            url,
            "http://insecure.example.org/x",
            "not a url",
            `https://e.example.org/${"a".repeat(2000)}`,
          ],
        }),
      ),
    ).toEqual(["evidence_urls[1]", "evidence_urls[2]", "evidence_urls[3]"]);
  });
});

describe("when a dispute is accepted", () => {
  const approvedAt = new Date("2026-12-01T12:00:00.000Z");
  const closes = disputeWindowClosesAt(approvedAt);

  it("closes the window 14 days after the approval", () => {
    expect(closes.getTime() - approvedAt.getTime()).toBe(DISPUTE_WINDOW_DAYS * 86_400_000);
  });

  it("accepts pending_approval, and completed up to the end of the window", () => {
    expect(assertDisputable({ status: "pending_approval", completed_at: null }, approvedAt)).toBe(
      "pending_approval",
    );
    expect(assertDisputable({ status: "completed", completed_at: approvedAt }, closes)).toBe("completed");
    try {
      assertDisputable({ status: "completed", completed_at: approvedAt }, new Date(closes.getTime() + 1));
      throw new Error("expected a refusal");
    } catch (error) {
      expect(error).toBeInstanceOf(ConflictError);
      expect((error as ConflictError).code).toBe("dispute_window_closed");
      expect((error as ConflictError).details).toMatchObject({ window_closed_at: closes.toISOString() });
    }
  });

  it("refuses every other status as invalid_state", () => {
    for (const status of EXPERIMENT_STATUSES.filter((s) => s !== "pending_approval" && s !== "completed"))
      expect(() => assertDisputable({ status, completed_at: null }, approvedAt)).toThrow(InvalidStateError);
  });
});
