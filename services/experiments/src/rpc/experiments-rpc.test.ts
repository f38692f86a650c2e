import { ExperimentsService } from "@petri/contracts/experiments";
import { describe, expect, it } from "vitest";
import { EXPERIMENTS_AUDIENCES } from "./experiments-rpc.js";

describe("experiments RPC audiences", () => {
  it("names an audience for every procedure of the contract, and only those", () => {
    const procedures = Object.values(ExperimentsService.method).map((m) => m.localName);
    expect(Object.keys(EXPERIMENTS_AUDIENCES).sort()).toEqual([...procedures].sort());
  });

  it("keeps the review and proposal procedures for staff", () => {
    const staffOnly = Object.entries(EXPERIMENTS_AUDIENCES)
      .filter(([, audience]) => audience === "staff")
      .map(([name]) => name)
      .sort();
    expect(staffOnly).toEqual(["approveReview", "listReviewQueue", "proposeProtocol", "rejectReview"]);
  });
});
