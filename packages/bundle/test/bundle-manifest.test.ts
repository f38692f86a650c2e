// What each bundle's package.json must list, without installing anything.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  REPO_ROOT,
  assertResolvesAsListed,
  bundleService,
  installedVersion,
  workspaceBundleDir,
} from "../src/bundle-service.js";

const out = mkdtempSync(path.join(tmpdir(), "petri-bundle-manifest-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const versionIn = (dir: string, name: string) =>
  (
    JSON.parse(readFileSync(path.join(dir, "node_modules", name, "package.json"), "utf8")) as {
      version: string;
    }
  ).version;

describe("bundle manifests", () => {
  it("the gateway's lists the packages its documentation pages read files from at run time", async () => {
    const { dir, dependencies } = await bundleService("gateway", out);
    expect(dependencies["swagger-ui-dist"]).toBe(versionIn(REPO_ROOT, "swagger-ui-dist"));
    expect(dependencies.redoc).toBe(versionIn(REPO_ROOT, "redoc"));
    // The gateway owns no data: no database or bus client in its image.
    expect(Object.keys(dependencies).filter((name) => /^(pg|kysely|@nats-io\/)/.test(name))).toEqual([]);
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(Object.keys(manifest).sort()).toEqual(["dependencies", "type"]);
    expect(manifest.type).toBe("module");
  });

  it("cloud-labs' lists the ajv its workspace resolves (nested), not the root's", async () => {
    const { dependencies } = await bundleService("cloud-labs", out);
    const nested = installedVersion("ajv", path.join(REPO_ROOT, "services/cloud-labs/src"));
    expect(dependencies.ajv).toBe(nested);
    // Run in place from its own package it loads that ajv; from under the repo root it would not.
    expect(() => assertResolvesAsListed(workspaceBundleDir("cloud-labs"), dependencies)).not.toThrow();
    if (installedVersion("ajv", REPO_ROOT) !== nested) {
      expect(() => assertResolvesAsListed(path.join(REPO_ROOT, "dist", "cloud-labs"), dependencies)).toThrow(
        /ajv/,
      );
    }
  });
});
