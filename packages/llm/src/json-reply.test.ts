import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  MAX_PROBLEMS_REPORTED,
  buildRepairMessages,
  checkJsonReply,
  summariseProblems,
} from "./json-reply.js";

const schema = z.object({ name: z.string().trim().min(1, "must not be empty"), size: z.number() });
const valid = { name: "fixture", size: 2 };

function problemsOf(content: string | null, check?: (value: z.output<typeof schema>) => string[]) {
  const result = checkJsonReply(content, schema, check);
  if (result.ok) throw new Error("expected the reply to be rejected");
  return result.problems;
}

describe("checkJsonReply", () => {
  it("returns the schema's output for a valid reply", () => {
    expect(checkJsonReply(JSON.stringify({ ...valid, name: "  fixture " }), schema)).toEqual({
      ok: true,
      value: valid,
    });
  });

  it("accepts JSON inside a Markdown code fence", () => {
    expect(checkJsonReply("```json\n" + JSON.stringify(valid) + "\n```", schema).ok).toBe(true);
    expect(checkJsonReply("```\n" + JSON.stringify(valid) + "```", schema).ok).toBe(true);
  });

  it("rejects empty and non-JSON replies", () => {
    expect(problemsOf(null)).toEqual(["the reply was empty; answer with the JSON object"]);
    expect(problemsOf("   ")[0]).toContain("empty");
    expect(problemsOf("Here is my answer")[0]).toContain("not valid JSON");
  });

  it("lists schema problems as path: message", () => {
    const problems = problemsOf(JSON.stringify({ name: " ", size: "2" }));
    expect(problems).toContain("name: must not be empty");
    expect(problems.some((p) => p.startsWith("size:"))).toBe(true);
    expect(problemsOf("[1]")[0]).toMatch(/^\(reply\): /);
  });

  it("bounds how many problems are listed and how long each is", () => {
    const many = z.object(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, z.string()])));
    const result = checkJsonReply("{}", many);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems).toHaveLength(MAX_PROBLEMS_REPORTED);
    const long = problemsOf(JSON.stringify(valid), () => [`size: ${"x".repeat(1000)}`]);
    expect(long[0]!.length).toBeLessThanOrEqual(300);
  });

  it("runs the caller's check only on a value that passed the schema", () => {
    let calls = 0;
    const check = (value: { size: number }) => {
      calls++;
      return value.size > 1 ? ["size: must be 1 at most"] : [];
    };
    expect(problemsOf(JSON.stringify(valid), check)).toEqual(["size: must be 1 at most"]);
    expect(checkJsonReply(JSON.stringify({ ...valid, size: 1 }), schema, check).ok).toBe(true);
    problemsOf(JSON.stringify({ name: "" }), check);
    expect(calls).toBe(2);
  });
});

describe("buildRepairMessages", () => {
  it("appends the rejected reply (bounded) and the problems", () => {
    const original = [
      { role: "system" as const, content: "Answer with JSON." },
      { role: "user" as const, content: "The question." },
    ];
    const repaired = buildRepairMessages(original, "x".repeat(10_000), ["name: must not be empty"]);
    expect(repaired.slice(0, 2)).toEqual(original);
    expect(repaired[2]!.role).toBe("assistant");
    expect(repaired[2]!.content.length).toBeLessThan(10_000);
    expect(repaired[3]!.role).toBe("user");
    expect(repaired[3]!.content).toContain("- name: must not be empty");
  });
});

describe("summariseProblems", () => {
  it("keeps the first three problems within 300 characters", () => {
    expect(summariseProblems(["a: 1", "b: 2", "c: 3", "d: 4"])).toBe("a: 1; b: 2; c: 3");
    expect(summariseProblems(["x".repeat(400)]).length).toBe(300);
  });
});
