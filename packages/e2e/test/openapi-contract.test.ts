/**
 * The conformance suite's contract checks, on the committed document and on the shapes the
 * audit found wrong in the previous one (issue 13): each would be reported.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Contract, envelopeProblems } from "./support/openapi-contract.js";

const current = () =>
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../../gateway/openapi.json"), "utf8"));

/** The committed document with the shapes the audit found, as the document had them before. */
function before() {
  const document = current();
  const active = document.paths["/cloud-labs/engine/active"].get.responses[200].content["application/json"];
  active.schema = { allOf: [{ $ref: "#/components/schemas/EngineRun" }, { type: ["object", "null"] }] };
  const file = document.paths["/files/{file_id}"].get.responses[200];
  file.content = { "application/octet-stream": file.content["*/*"] };
  return new Contract(document);
}

describe("the OpenAPI contract", () => {
  const contract = new Contract();
  const check = (c: Contract, method: string, path: string, status: number, type: string, body: unknown) =>
    c.check(c.match(method, path)!, status, type, typeof body === "string" ? body : JSON.stringify(body));

  it("finds the operation of a request, literal segments first", () => {
    expect(contract.match("GET", "/cloud-labs/engine/active")?.operationId).toBe("getActiveEngineRun");
    expect(contract.match("GET", "/cloud-labs/engine/runs/run_1")?.operationId).toBe("getEngineRun");
    expect(contract.match("DELETE", "/cloud-labs/engine/active")).toBeUndefined();
  });

  it("accepts null where a nullable reference is documented (the old allOf form refused it)", () => {
    expect(check(contract, "GET", "/cloud-labs/engine/active", 200, "application/json", "null")).toEqual([]);
    expect(check(before(), "GET", "/cloud-labs/engine/active", 200, "application/json", "null")).not.toEqual(
      [],
    );
  });

  it("serves a results file of any media type, as documented now", () => {
    expect(check(contract, "GET", "/files/fil_1", 200, "text/csv", "a,b\n")).toEqual([]);
    expect(check(before(), "GET", "/files/fil_1", 200, "text/csv", "a,b\n")[0]).toContain("media type");
  });

  it("reports an invalid 2xx body and an undocumented status", () => {
    expect(check(contract, "GET", "/hypotheses/hyp_1", 200, "application/json", {}).length).toBeGreaterThan(
      0,
    );
    expect(check(contract, "GET", "/auth/me", 418, "application/json", {})).toEqual([
      "status 418 is not documented",
    ]);
  });

  it("checks the error envelope, and details.errors of validation_failed", () => {
    expect(envelopeProblems('{"error":{"code":"not_found","message":"m","details":{}}}')).toEqual([]);
    expect(envelopeProblems("<html>431</html>")).toEqual(["the error body is not JSON"]);
    expect(envelopeProblems('{"message":"x"}').length).toBeGreaterThan(0);
    expect(envelopeProblems('{"error":{"code":"validation_failed","message":"m","details":{}}}')).toEqual([
      "validation_failed without details.errors=[{field,code,message}]",
    ]);
  });
});
