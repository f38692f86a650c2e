import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../openapi-document.js";
import { nullableReferences } from "./openapi.js";

/** Every node of `value` that has an allOf with a member whose type admits null. */
function nullInsideAllOf(value: unknown, path = "#"): string[] {
  if (value === null || typeof value !== "object") return [];
  const found: string[] = [];
  const node = value as Record<string, unknown>;
  if (Array.isArray(node.allOf)) {
    const admitsNull = (member: any) =>
      member?.type === "null" || (Array.isArray(member?.type) && member.type.includes("null"));
    if (node.allOf.some(admitsNull)) found.push(path);
  }
  for (const [key, child] of Object.entries(node)) found.push(...nullInsideAllOf(child, `${path}/${key}`));
  return found;
}

describe("nullable references in the OpenAPI document", () => {
  it("rewrites allOf[$ref, {type:[object,null]}] as anyOf[$ref, {type:null}], keeping the description", () => {
    const rendered = {
      properties: {
        result: {
          allOf: [
            { $ref: "#/components/schemas/EngineResult" },
            { type: ["object", "null"], description: "d" },
          ],
        },
        status: { allOf: [{ $ref: "#/components/schemas/Status" }, { description: "unchanged" }] },
      },
    };
    expect(nullableReferences(rendered)).toEqual({
      properties: {
        result: {
          description: "d",
          anyOf: [{ $ref: "#/components/schemas/EngineResult" }, { type: "null" }],
        },
        status: { allOf: [{ $ref: "#/components/schemas/Status" }, { description: "unchanged" }] },
      },
    });
  });

  it("leaves no allOf that null would have to satisfy in the gateway's document", () => {
    const document = buildOpenApiDocument() as any;
    expect(nullInsideAllOf(document)).toEqual([]);
    expect(document.components.schemas.EngineRun.properties.result.anyOf).toContainEqual({ type: "null" });
    expect(document.components.schemas.DisputeReview.properties.results.anyOf).toContainEqual({
      type: "null",
    });
    const active = document.paths["/cloud-labs/engine/active"].get.responses[200].content["application/json"];
    expect(active.schema.anyOf).toContainEqual({ type: "null" });
  });
});
