import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOTIFICATIONS_SECRETS_FILE, loadOrCreateNotificationsKek } from "./secrets-file.js";

// The file mechanics are service-kit's loadOrCreateSecretsFile's, tested there.
describe("loadOrCreateNotificationsKek", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "petri-notifications-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps one 32-byte KEK in notifications-secrets.json across calls", async () => {
    const kek = await loadOrCreateNotificationsKek(dir);
    expect(kek).toHaveLength(32);
    const onDisk = JSON.parse(await readFile(path.join(dir, NOTIFICATIONS_SECRETS_FILE), "utf8")) as unknown;
    expect(onDisk).toEqual({ version: 1, kek: kek.toString("base64") });
    expect((await loadOrCreateNotificationsKek(dir)).equals(kek)).toBe(true);
  });
});
