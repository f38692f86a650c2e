import { EngineService } from "@petri/contracts/engine";
import { describe, expect, it } from "vitest";
import { ENGINE_AUDIENCES } from "./engine-rpc.js";

describe("engine RPC audiences", () => {
  it("names an audience for every procedure of the contract, and only those", () => {
    const procedures = Object.values(EngineService.method).map((m) => m.localName);
    expect(Object.keys(ENGINE_AUDIENCES).sort()).toEqual([...procedures].sort());
  });

  it("acts for accounts only: runs are each account's own", () => {
    expect(new Set(Object.values(ENGINE_AUDIENCES))).toEqual(new Set(["account"]));
  });
});
