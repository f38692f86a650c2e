import { createHash } from "node:crypto";
import { QuotaPolicy, Tier } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { ResultsLoopState, URL_TTL_SECONDS } from "../../../test/support/fake-experiments-loop.js";
import { FakeExperiments, gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf, from } from "../../../test/support/fake-identity.js";

const SOURCE = "198.51.100.130";
const CSV = new TextEncoder().encode("dose,od600\n0,0.91\n8,0.05\n");

let clock: FakeClock;
let identity: FakeIdentity;
let experiments: FakeExperiments;
let app: Awaited<ReturnType<typeof gatewayWithServices>>;

beforeEach(async () => {
  clock = new FakeClock("2026-03-02T10:00:00.000Z");
  identity = await FakeIdentity.create(clock);
  experiments = new FakeExperiments(clock);
  app = await gatewayWithServices(identity, { experiments });
});

/** A signed URL of a stored file, valid for the fake's URL lifetime. */
function signedUrl(
  fileId: string,
  expires = BigInt(Math.floor(clock.now().getTime() / 1000) + URL_TTL_SECONDS),
) {
  return `/files/${fileId}?expires=${expires}&signature=${ResultsLoopState.signature(fileId, expires)}`;
}

const download = (path: string, headers: Record<string, string> = {}) =>
  app.request(path, { headers }, from(SOURCE));

describe("GET /files/{file_id}", () => {
  it("serves the bytes to a signed URL without credentials, as a download that is never cached or run", async () => {
    const fileId = experiments.loop.addFile("plate 1 (µM).csv", "text/csv", CSV);
    const response = await download(signedUrl(fileId));
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(CSV);
    const sha256 = createHash("sha256").update(CSV).digest();
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "content-type": "text/csv",
      "content-length": String(CSV.byteLength),
      "content-disposition": `attachment; filename="plate 1 (_M).csv"; filename*=UTF-8''plate%201%20%28%C2%B5M%29.csv`,
      "repr-digest": `sha-256=:${sha256.toString("base64")}:`,
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
    });
    // The gateway asks as itself: nobody is logged in, the signature is the credential.
    expect(experiments.calls.map((c) => [c.method, c.principal?.role])).toEqual([
      ["GetResultFile", "system"],
    ]);
    expect(experiments.last("GetResultFile")).toMatchObject({ fileId, signature: expect.any(String) });
    // Still rate-limited per address, like every anonymous request.
    expect(response.headers.get("x-ratelimit-limit")).not.toBeNull();
    expect(identity.grantedThisMinute(QuotaPolicy.ANONYMOUS, SOURCE)).toBeGreaterThan(0);
  });

  it("ignores credentials: even an invalid key does not stop a valid signed URL", async () => {
    const fileId = experiments.loop.addFile("a.csv", "text/csv", CSV);
    const key = identity.addAccount({ tier: Tier.PRO }).secret;
    expect((await download(signedUrl(fileId), { "x-api-key": key })).status).toBe(200);
    expect((await download(signedUrl(fileId), { authorization: "Bearer not-a-token" })).status).toBe(200);
  });

  it("an expired or altered URL is 403, an unknown file 404", async () => {
    const fileId = experiments.loop.addFile("a.csv", "text/csv", CSV);
    const url = signedUrl(fileId);
    await clock.advance((URL_TTL_SECONDS + 1) * 1000);
    const expired = await download(url);
    expect(expired.status).toBe(403);
    expect((await bodyOf(expired)).error).toMatchObject({
      code: "forbidden",
      message: "the link has expired",
    });

    const fresh = signedUrl(fileId);
    const altered = fresh.replace(/expires=(\d+)/, (_m, e: string) => `expires=${BigInt(e) + 3600n}`);
    expect((await download(altered)).status).toBe(403);
    const otherFile = fresh.replace(fileId, "fil_00000000000000000000999999");
    expect((await download(otherFile)).status).toBe(403);

    const missing = "fil_00000000000000000000404404";
    const unknown = await download(signedUrl(missing));
    expect(unknown.status).toBe(404);
    expect((await bodyOf(unknown)).error.code).toBe("not_found");
  });

  it("missing or malformed expires and signature are 422 without a call", async () => {
    const fileId = experiments.loop.addFile("a.csv", "text/csv", CSV);
    for (const query of [
      "",
      "?expires=1772445600",
      "?signature=abc",
      "?expires=soon&signature=abc",
      "?expires=1&signature=a%20b",
    ]) {
      const response = await download(`/files/${fileId}${query}`);
      expect(response.status, query).toBe(422);
      expect((await bodyOf(response)).error.code).toBe("validation_failed");
    }
    expect(experiments.calls).toHaveLength(0);
  });

  it("a stored media type that is not a plain type/subtype is served as octet-stream; odd names are made safe", async () => {
    const fileId = experiments.loop.addFile('../../"evil"\r\n.html', "text/html\r\nSet-Cookie: a=1", CSV);
    const response = await download(signedUrl(fileId));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/octet-stream");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="_evil_.html"; filename*=UTF-8''%22evil%22.html`,
    );
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("a file that does not match its stored checksum is never sent (500)", async () => {
    const fileId = experiments.loop.addFile("a.csv", "text/csv", CSV);
    experiments.loop.files.get(fileId)!.content = new TextEncoder().encode("tampered");
    const response = await download(signedUrl(fileId));
    expect(response.status).toBe(500);
    expect((await bodyOf(response)).error.code).toBe("internal_error");
  });
});
