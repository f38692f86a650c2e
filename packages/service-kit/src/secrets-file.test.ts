import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "./config.js";
import { generateSecrets, loadOrCreateSecretsFile, type SecretsFileSpec } from "./secrets-file.js";

const spec: SecretsFileSpec<"kek" | "pepper"> = {
  fileName: "test-secrets.json",
  description: "test secrets",
  secrets: { kek: { bytes: 32 }, pepper: { bytes: 32, minBytes: 16 } },
};

const base64Of = (bytes: number) => Buffer.alloc(bytes, 7).toString("base64");

describe("loadOrCreateSecretsFile", () => {
  let root: string;
  let counter = 0;
  const freshDir = () => path.join(root, `data-${(counter += 1)}`);

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "petri-secrets-file-"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("creates the file once with mode 0600, even for concurrent callers, and reads it back unchanged", async () => {
    const dataDir = freshDir();
    const all = await Promise.all(Array.from({ length: 6 }, () => loadOrCreateSecretsFile(dataDir, spec)));
    for (const secrets of all) {
      expect(secrets.kek.equals(all[0]!.kek)).toBe(true);
      expect(secrets.pepper.equals(all[0]!.pepper)).toBe(true);
    }
    expect(all[0]!.kek).toHaveLength(32);
    expect(all[0]!.pepper).toHaveLength(32);
    const file = path.join(dataDir, spec.fileName);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // No temporary file is left behind by the callers that lost the race.
    expect(await readdir(dataDir)).toEqual([spec.fileName]);
    const onDisk = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    expect(onDisk).toEqual({
      version: 1,
      kek: all[0]!.kek.toString("base64"),
      pepper: all[0]!.pepper.toString("base64"),
    });
    const again = await loadOrCreateSecretsFile(dataDir, spec);
    expect(again.kek.equals(all[0]!.kek)).toBe(true);
  });

  it("tightens a loosened mode", async () => {
    const dataDir = freshDir();
    await loadOrCreateSecretsFile(dataDir, spec);
    const file = path.join(dataDir, spec.fileName);
    await chmod(file, 0o644);
    await loadOrCreateSecretsFile(dataDir, spec);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("accepts a longer secret where only a minimum is set, and exactly the size elsewhere", async () => {
    const dataDir = freshDir();
    await mkdir(dataDir, { recursive: true });
    const file = path.join(dataDir, spec.fileName);
    await writeFile(file, JSON.stringify({ version: 1, kek: base64Of(32), pepper: base64Of(48) }));
    const secrets = await loadOrCreateSecretsFile(dataDir, spec);
    expect(secrets.pepper).toHaveLength(48);
    await writeFile(file, JSON.stringify({ version: 1, kek: base64Of(33), pepper: base64Of(48) }));
    await expect(loadOrCreateSecretsFile(dataDir, spec)).rejects.toThrow(/"kek" must be 32 bytes of base64/);
    await writeFile(file, JSON.stringify({ version: 1, kek: base64Of(32), pepper: base64Of(8) }));
    await expect(loadOrCreateSecretsFile(dataDir, spec)).rejects.toThrow(
      /"pepper" must be at least 16 bytes of base64/,
    );
  });

  it("refuses a damaged file with a ConfigError naming the file and the expected shape", async () => {
    const dataDir = freshDir();
    await mkdir(dataDir, { recursive: true });
    const file = path.join(dataDir, spec.fileName);
    for (const body of [
      "{ not json",
      "[]",
      JSON.stringify({ version: 2, kek: base64Of(32), pepper: base64Of(32) }),
      JSON.stringify({ version: 1, kek: base64Of(32) }),
      JSON.stringify({ version: 1, kek: "not base64!", pepper: base64Of(32) }),
    ]) {
      await writeFile(file, body);
      const error = await loadOrCreateSecretsFile(dataDir, spec).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems[0]!.variable).toBe(file);
      expect((error as ConfigError).message).toMatch(
        body.includes("not base64")
          ? /"kek" must be 32 bytes/
          : /is not a valid test secrets file \(expected \{"version":1,"kek":…,"pepper":…\}\)/,
      );
    }
  });

  it("refuses a directory where the file should be", async () => {
    const dataDir = freshDir();
    await mkdir(path.join(dataDir, spec.fileName), { recursive: true });
    await expect(loadOrCreateSecretsFile(dataDir, spec)).rejects.toThrow(/is not a regular file/);
  });

  it("writes nothing for an in-memory data directory, and generates new secrets each time", async () => {
    const a = await loadOrCreateSecretsFile("memory://", spec);
    const b = await loadOrCreateSecretsFile("memory://", spec);
    expect(a.kek).toHaveLength(32);
    expect(a.kek.equals(b.kek)).toBe(false);
  });
});

describe("generateSecrets", () => {
  it("gives each secret its size in fresh random bytes", () => {
    const one = generateSecrets(spec);
    const two = generateSecrets(spec);
    expect(one.kek).toHaveLength(32);
    expect(one.pepper).toHaveLength(32);
    expect(one.kek.equals(two.kek)).toBe(false);
  });
});
