import { CloudLabsService } from "@petri/contracts/cloudlabs";
import { describe, expect, it } from "vitest";
import { CLOUDLABS_AUDIENCES } from "./cloudlabs-rpc.js";

describe("cloudlabs RPC audiences", () => {
  it("names an audience for every procedure of the contract, and only those", () => {
    const procedures = Object.values(CloudLabsService.method).map((m) => m.localName);
    expect(Object.keys(CLOUDLABS_AUDIENCES).sort()).toEqual([...procedures].sort());
  });
});
