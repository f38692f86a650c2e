import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { ApiKey } from "./api-key.js";
import {
  apiKeySchema,
  httpBaseUrlSchema,
  llmPairingProblems,
  maxRetriesSchema,
  modelNameSchema,
} from "./env.js";

const KEY = "sk-env-test-key-never-echoed";

function messagesOf(result: { success: boolean; error?: { issues: { message: string }[] } }): string {
  expect(result.success).toBe(false);
  return result.error!.issues.map((issue) => issue.message).join("; ");
}

describe("httpBaseUrlSchema", () => {
  it("accepts http(s) URLs and drops trailing slashes", () => {
    expect(httpBaseUrlSchema.parse(" http://127.0.0.1:11434/v1/ ")).toBe("http://127.0.0.1:11434/v1");
    expect(httpBaseUrlSchema.parse("https://llm.example.org/v1")).toBe("https://llm.example.org/v1");
  });

  it("refuses other schemes, non-URLs and credentials in the URL", () => {
    for (const value of ["ftp://llm.example.org", "llm.example.org", "https://user:pw@llm.example.org/v1"])
      expect(messagesOf(httpBaseUrlSchema.safeParse(value))).toContain(
        "must be an http:// or https:// URL without credentials in it",
      );
  });
});

describe("apiKeySchema", () => {
  it("wraps the key so it only shows when revealed", () => {
    const key = apiKeySchema.parse(` ${KEY} `);
    expect(key).toBeInstanceOf(ApiKey);
    expect(key.reveal()).toBe(KEY);
    expect(`${key}`).toBe("[redacted]");
    expect(JSON.stringify({ key })).not.toContain(KEY);
    expect(inspect({ key }, { depth: 5 })).not.toContain(KEY);
  });

  it("refuses spaces and control characters without quoting the key", () => {
    const message = messagesOf(apiKeySchema.safeParse(`${KEY} with spaces`));
    expect(message).toContain("printable ASCII");
    expect(message).not.toContain(KEY);
  });
});

describe("maxRetriesSchema and modelNameSchema", () => {
  it("reads 0 to 10 retries", () => {
    expect(maxRetriesSchema.parse("0")).toBe(0);
    expect(maxRetriesSchema.parse("10")).toBe(10);
    for (const value of ["11", "-1", "2.5", "many", "100"])
      expect(messagesOf(maxRetriesSchema.safeParse(value))).toContain("must be a whole number from 0 to 10");
  });

  it("bounds the model name", () => {
    expect(modelNameSchema.parse(" fixture-model ")).toBe("fixture-model");
    expect(modelNameSchema.safeParse("m".repeat(201)).success).toBe(false);
  });
});

describe("llmPairingProblems", () => {
  it("reports each half-configuration on the variable that is set", () => {
    expect(llmPairingProblems("P", { baseUrl: "u", model: "m", apiKey: "k" })).toEqual([]);
    expect(llmPairingProblems("P", {})).toEqual([]);
    expect(llmPairingProblems("P", { baseUrl: "u" })).toEqual([
      ["P_BASE_URL", expect.stringContaining("P_MODEL")],
    ]);
    expect(llmPairingProblems("P", { model: "m" })).toEqual([
      ["P_MODEL", expect.stringContaining("P_BASE_URL")],
    ]);
    expect(llmPairingProblems("P", { apiKey: "k" })).toEqual([
      ["P_API_KEY", "needs P_BASE_URL as well (where the key is sent)"],
    ]);
  });
});
