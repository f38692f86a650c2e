import { afterEach, describe, expect, it, vi } from "vitest";
import { requireInfra } from "./postgres.js";

describe("requireInfra", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it("passes when the server is available", () => {
    vi.stubEnv("CI", "true");
    expect(requireInfra("PostgreSQL", true)).toBe(true);
  });

  it("fails under CI=true when the server is missing", () => {
    vi.stubEnv("CI", "true");
    expect(() => requireInfra("PostgreSQL", false)).toThrow(/PostgreSQL is required/);
  });

  it("skips loudly outside CI", () => {
    vi.stubEnv("CI", "");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(requireInfra("nats-server", false)).toBe(false);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("nats-server is not reachable: SKIPPING"));
  });
});
