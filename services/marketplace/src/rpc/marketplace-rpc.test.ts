import { MarketplaceService } from "@petri/contracts/marketplace";
import { describe, expect, it } from "vitest";
import { MARKETPLACE_AUDIENCES } from "./marketplace-rpc.js";

describe("marketplace RPC audiences", () => {
  it("names an audience for every procedure of the contract, and only those", () => {
    const procedures = Object.values(MarketplaceService.method).map((m) => m.localName);
    expect(Object.keys(MARKETPLACE_AUDIENCES).sort()).toEqual([...procedures].sort());
  });

  it("keeps operator verification and the ledger check for staff", () => {
    const staffOnly = Object.entries(MARKETPLACE_AUDIENCES)
      .filter(([, audience]) => audience === "staff")
      .map(([name]) => name)
      .sort();
    expect(staffOnly).toEqual([
      "checkLedger",
      "getOperator",
      "listOperators",
      "reinstateOperator",
      "rejectOperator",
      "suspendOperator",
      "verifyOperator",
    ]);
  });
});
