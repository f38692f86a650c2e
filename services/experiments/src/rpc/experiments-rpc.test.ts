import { ExperimentsService } from "@petri/contracts/experiments";
import { describe, expect, it } from "vitest";
import { EXPERIMENTS_AUDIENCES } from "./experiments-rpc.js";

describe("experiments RPC audiences", () => {
  it("names an audience for every procedure of the contract, and only those", () => {
    const procedures = Object.values(ExperimentsService.method).map((m) => m.localName);
    expect(Object.keys(EXPERIMENTS_AUDIENCES).sort()).toEqual([...procedures].sort());
  });

  it("keeps review, proposals and disputes handling for staff", () => {
    const staffOnly = Object.entries(EXPERIMENTS_AUDIENCES)
      .filter(([, audience]) => audience === "staff")
      .map(([name]) => name)
      .sort();
    expect(staffOnly).toEqual([
      "approveReview",
      "getDispute",
      "listDisputes",
      "listReviewQueue",
      "proposeProtocol",
      "rejectReview",
      "resolveDispute",
    ]);
  });

  it("lets only the signed file download be called by the gateway's system principal", () => {
    const signedLink = Object.entries(EXPERIMENTS_AUDIENCES)
      .filter(([, audience]) => audience === "signed_link")
      .map(([name]) => name);
    expect(signedLink).toEqual(["getResultFile"]);
  });
});
