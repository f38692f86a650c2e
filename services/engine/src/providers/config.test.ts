import { inspect } from "node:util";
import { ConfigError } from "@petri/service-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiKey,
  DEFAULT_CROSSREF_BASE_URL,
  DEFAULT_DOI_BASE_URL,
  DEFAULT_EUROPEPMC_BASE_URL,
  createProviders,
  loadEngineProviderConfig,
} from "./config.js";
import {
  FAKE_LLM_VALID_REPLY,
  startFakeLiteratureServer,
  startFakeLlmServer,
  type FakeLiteratureServer,
  type FakeLlmServer,
} from "@petri/fixtures/engine";
import { writerInput } from "../../test/support/writer-input.js";

const KEY = "sk-config-test-key-never-echoed";

function problems(env: Record<string, string>): string {
  try {
    loadEngineProviderConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("loadEngineProviderConfig", () => {
  it("configures no provider by default", () => {
    expect(loadEngineProviderConfig({})).toEqual({ literature: { kind: "none" } });
  });

  it("treats empty variables as unset", () => {
    expect(loadEngineProviderConfig({ PETRI_ENGINE_LLM_BASE_URL: "", PETRI_ENGINE_LITERATURE: "" })).toEqual({
      literature: { kind: "none" },
    });
  });

  it("configures the LLM when base URL and model are set, with defaults", () => {
    const config = loadEngineProviderConfig({
      PETRI_ENGINE_LLM_BASE_URL: "http://127.0.0.1:11434/v1/",
      PETRI_ENGINE_LLM_MODEL: "fixture-model",
    });
    expect(config.llm).toEqual({
      baseUrl: "http://127.0.0.1:11434/v1",
      model: "fixture-model",
      timeoutMs: 30_000,
      maxRetries: 2,
    });
  });

  it("reads every LLM variable and keeps the key out of logs and JSON", () => {
    const config = loadEngineProviderConfig({
      PETRI_ENGINE_LLM_BASE_URL: "https://llm.example.org/v1",
      PETRI_ENGINE_LLM_MODEL: "fixture-model",
      PETRI_ENGINE_LLM_API_KEY: KEY,
      PETRI_ENGINE_LLM_TIMEOUT_MS: "5000",
      PETRI_ENGINE_LLM_MAX_RETRIES: "0",
    });
    expect(config.llm?.timeoutMs).toBe(5000);
    expect(config.llm?.maxRetries).toBe(0);
    expect(config.llm?.apiKey).toBeInstanceOf(ApiKey);
    expect(config.llm?.apiKey?.reveal()).toBe(KEY);
    expect(JSON.stringify(config)).not.toContain(KEY);
    expect(inspect(config, { depth: 10 })).not.toContain(KEY);
    expect(`${config.llm?.apiKey}`).not.toContain(KEY);
  });

  it("configures Europe PMC with the default endpoints", () => {
    const config = loadEngineProviderConfig({
      PETRI_ENGINE_LITERATURE: "europepmc",
      PETRI_ENGINE_CONTACT_EMAIL: "lab@example.org",
    });
    expect(config.literature).toEqual({
      kind: "europepmc",
      europePmcBaseUrl: DEFAULT_EUROPEPMC_BASE_URL,
      doiBaseUrl: DEFAULT_DOI_BASE_URL,
      crossrefBaseUrl: DEFAULT_CROSSREF_BASE_URL,
      contactEmail: "lab@example.org",
      timeoutMs: 10_000,
    });
  });

  it("explains a half-configured LLM", () => {
    expect(problems({ PETRI_ENGINE_LLM_BASE_URL: "http://127.0.0.1:1/v1" })).toMatch(
      /PETRI_ENGINE_LLM_BASE_URL: needs PETRI_ENGINE_LLM_MODEL as well/,
    );
    expect(problems({ PETRI_ENGINE_LLM_MODEL: "m" })).toMatch(
      /PETRI_ENGINE_LLM_MODEL: needs PETRI_ENGINE_LLM_BASE_URL as well/,
    );
    const keyWithoutUrl = problems({ PETRI_ENGINE_LLM_API_KEY: KEY });
    expect(keyWithoutUrl).toMatch(/PETRI_ENGINE_LLM_API_KEY: needs PETRI_ENGINE_LLM_BASE_URL as well/);
    expect(keyWithoutUrl).not.toContain(KEY);
  });

  it("lists every bad value at once, readably", () => {
    const message = problems({
      PETRI_ENGINE_LLM_BASE_URL: "ftp://llm.example.org",
      PETRI_ENGINE_LLM_MODEL: "m",
      PETRI_ENGINE_LLM_TIMEOUT_MS: "soon",
      PETRI_ENGINE_LLM_MAX_RETRIES: "11",
      PETRI_ENGINE_LITERATURE: "pubmed",
      PETRI_ENGINE_CONTACT_EMAIL: "not-an-address",
      PETRI_ENGINE_LITERATURE_TIMEOUT_MS: "0",
    });
    expect(message).toContain("PETRI_ENGINE_LLM_BASE_URL: must be an http:// or https:// URL");
    expect(message).toContain("PETRI_ENGINE_LLM_TIMEOUT_MS: must be a whole number of milliseconds");
    expect(message).toContain("PETRI_ENGINE_LLM_MAX_RETRIES: must be a whole number from 0 to 10");
    expect(message).toContain('PETRI_ENGINE_LITERATURE: must be "none" or "europepmc"');
    expect(message).toContain("PETRI_ENGINE_CONTACT_EMAIL: must be an e-mail address");
    expect(message).toContain("PETRI_ENGINE_LITERATURE_TIMEOUT_MS: must be greater than 0");
  });

  it("requires a contact e-mail for Europe PMC", () => {
    expect(problems({ PETRI_ENGINE_LITERATURE: "europepmc" })).toMatch(
      /PETRI_ENGINE_LITERATURE: europepmc needs PETRI_ENGINE_CONTACT_EMAIL/,
    );
  });

  it("refuses credentials in a URL and never echoes a bad key", () => {
    expect(
      problems({
        PETRI_ENGINE_LLM_BASE_URL: "https://user:pw@llm.example.org/v1",
        PETRI_ENGINE_LLM_MODEL: "m",
      }),
    ).toContain("without credentials");
    const message = problems({
      PETRI_ENGINE_LLM_BASE_URL: "https://llm.example.org/v1",
      PETRI_ENGINE_LLM_MODEL: "m",
      PETRI_ENGINE_LLM_API_KEY: `${KEY} with spaces`,
    });
    expect(message).toContain("PETRI_ENGINE_LLM_API_KEY");
    expect(message).not.toContain(KEY);
  });
});

describe("createProviders", () => {
  let llm: FakeLlmServer;
  let literature: FakeLiteratureServer;

  beforeAll(async () => {
    [llm, literature] = await Promise.all([startFakeLlmServer(), startFakeLiteratureServer()]);
  });
  afterAll(async () => {
    await Promise.all([llm.close(), literature.close()]);
  });

  it("creates nothing when nothing is configured", async () => {
    const providers = createProviders(loadEngineProviderConfig({}));
    expect(providers.writer).toBeUndefined();
    expect(providers.literature).toBeUndefined();
    await providers.close();
  });

  it("creates working providers from the environment", async () => {
    const providers = createProviders(
      loadEngineProviderConfig({
        PETRI_ENGINE_LLM_BASE_URL: llm.url,
        PETRI_ENGINE_LLM_MODEL: "fixture-model",
        PETRI_ENGINE_LLM_API_KEY: KEY,
        PETRI_ENGINE_LITERATURE: "europepmc",
        PETRI_ENGINE_EUROPEPMC_BASE_URL: literature.europePmcBaseUrl,
        PETRI_ENGINE_DOI_BASE_URL: literature.doiBaseUrl,
        PETRI_ENGINE_CROSSREF_BASE_URL: literature.crossrefBaseUrl,
        PETRI_ENGINE_CONTACT_EMAIL: "lab@example.org",
      }),
    );
    try {
      expect(providers.writer?.id).toBe("openai-compatible:fixture-model");
      expect(providers.literature?.id).toBe("europepmc");
      const signal = new AbortController().signal;
      const { sources } = await providers.literature!.findSources("PT-0001", { limit: 3, signal });
      expect(sources.length).toBeGreaterThan(0);
      expect(await providers.writer!.write(writerInput({ sources }), signal)).toEqual(FAKE_LLM_VALID_REPLY);
      const sent = llm.requests.at(-1)!;
      expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
      expect((sent.body as { model: string }).model).toBe("fixture-model");
      expect(literature.requests.at(-1)!.headers["user-agent"]).toContain("mailto:lab@example.org");
    } finally {
      await providers.close();
    }
  });
});
