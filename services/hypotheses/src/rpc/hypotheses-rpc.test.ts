import { HypothesesService } from "@petri/contracts/hypotheses";
import { describe, expect, it } from "vitest";
import { HYPOTHESES_AUDIENCES } from "./hypotheses-rpc.js";

describe("hypotheses RPC audiences", () => {
  it("names an audience for every procedure of the contract, and only those", () => {
    const procedures = Object.values(HypothesesService.method).map((m) => m.localName);
    expect(Object.keys(HYPOTHESES_AUDIENCES).sort()).toEqual([...procedures].sort());
  });

  it("acts for accounts only: nothing is staff-only, the library is each account's own", () => {
    expect(new Set(Object.values(HYPOTHESES_AUDIENCES))).toEqual(new Set(["account"]));
  });
});
