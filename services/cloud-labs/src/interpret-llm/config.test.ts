import { inspect } from "node:util";
import { ApiKey } from "@petri/llm";
import { ConfigError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { cloudLabsLlmConfig } from "./config.js";

const KEY = "sk-cloudlabs-config-key-never-echoed";

function problems(env: Record<string, string>): string {
  try {
    cloudLabsLlmConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("cloudLabsLlmConfig", () => {
  it("configures no language model by default, or when the variables are empty", () => {
    expect(cloudLabsLlmConfig({})).toBeUndefined();
    expect(
      cloudLabsLlmConfig({ PETRI_CLOUDLABS_LLM_BASE_URL: "", PETRI_CLOUDLABS_LLM_MODEL: "" }),
    ).toBeUndefined();
  });

  it("ignores other services' LLM variables", () => {
    expect(
      cloudLabsLlmConfig({ PETRI_ENGINE_LLM_BASE_URL: "http://127.0.0.1:1/v1", PETRI_ENGINE_LLM_MODEL: "m" }),
    ).toBeUndefined();
  });

  it("configures the model when base URL and model are set, with defaults", () => {
    expect(
      cloudLabsLlmConfig({
        PETRI_CLOUDLABS_LLM_BASE_URL: "http://127.0.0.1:11434/v1/",
        PETRI_CLOUDLABS_LLM_MODEL: "fixture-model",
      }),
    ).toEqual({
      baseUrl: "http://127.0.0.1:11434/v1",
      model: "fixture-model",
      timeoutMs: 15_000,
      maxRetries: 1,
    });
  });

  it("reads every variable and keeps the key out of logs and JSON", () => {
    const config = cloudLabsLlmConfig({
      PETRI_CLOUDLABS_LLM_BASE_URL: "https://llm.example.org/v1",
      PETRI_CLOUDLABS_LLM_MODEL: "fixture-model",
      PETRI_CLOUDLABS_LLM_API_KEY: KEY,
      PETRI_CLOUDLABS_LLM_TIMEOUT_MS: "5000",
      PETRI_CLOUDLABS_LLM_MAX_RETRIES: "0",
    });
    expect(config?.timeoutMs).toBe(5000);
    expect(config?.maxRetries).toBe(0);
    expect(config?.apiKey).toBeInstanceOf(ApiKey);
    expect(config?.apiKey?.reveal()).toBe(KEY);
    expect(JSON.stringify(config)).not.toContain(KEY);
    expect(inspect(config, { depth: 10 })).not.toContain(KEY);
  });

  it("explains a half-configured model on the variable that is set", () => {
    expect(problems({ PETRI_CLOUDLABS_LLM_BASE_URL: "http://127.0.0.1:1/v1" })).toMatch(
      /PETRI_CLOUDLABS_LLM_BASE_URL: needs PETRI_CLOUDLABS_LLM_MODEL as well/,
    );
    expect(problems({ PETRI_CLOUDLABS_LLM_MODEL: "m" })).toMatch(
      /PETRI_CLOUDLABS_LLM_MODEL: needs PETRI_CLOUDLABS_LLM_BASE_URL as well/,
    );
    const keyWithoutUrl = problems({ PETRI_CLOUDLABS_LLM_API_KEY: KEY });
    expect(keyWithoutUrl).toMatch(/PETRI_CLOUDLABS_LLM_API_KEY: needs PETRI_CLOUDLABS_LLM_BASE_URL as well/);
    expect(keyWithoutUrl).not.toContain(KEY);
  });

  it("lists every bad value at once, readably, without echoing the key", () => {
    const message = problems({
      PETRI_CLOUDLABS_LLM_BASE_URL: "https://user:pw@llm.example.org/v1",
      PETRI_CLOUDLABS_LLM_MODEL: "m",
      PETRI_CLOUDLABS_LLM_API_KEY: `${KEY} with spaces`,
      PETRI_CLOUDLABS_LLM_TIMEOUT_MS: "soon",
      PETRI_CLOUDLABS_LLM_MAX_RETRIES: "11",
    });
    expect(message).toContain(
      "PETRI_CLOUDLABS_LLM_BASE_URL: must be an http:// or https:// URL without credentials",
    );
    expect(message).toContain("PETRI_CLOUDLABS_LLM_API_KEY: must be printable ASCII without spaces");
    expect(message).toContain("PETRI_CLOUDLABS_LLM_TIMEOUT_MS: must be a whole number of milliseconds");
    expect(message).toContain("PETRI_CLOUDLABS_LLM_MAX_RETRIES: must be a whole number from 0 to 10");
    expect(message).not.toContain(KEY);
    expect(problems({ PETRI_CLOUDLABS_LLM_TIMEOUT_MS: "600001" })).toContain("must be at most 600000");
  });
});
