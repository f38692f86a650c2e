import { createHash } from "node:crypto";
import { readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect, it } from "vitest";
import { SUBMISSION } from "../support/lab-submission.js";
import { resultsHelpers } from "../support/real-results.js";
import { describeWithSharedAccounts } from "../support/real-services-shared.js";
import { bodyOf, from } from "../support/requests.js";

const SOURCE = "198.51.100.130";
/** How long the experiments service's signed file URLs stay valid (FILE_URL_TTL_SECONDS). */
const URL_TTL_SECONDS = 900;

/** A submission whose one raw data file is `content`, named `name`. */
const withFile = (name: string, content: string) => ({
  ...SUBMISSION,
  raw_data_uploads: [{ name, format: "CSV", content_base64: Buffer.from(content).toString("base64") }],
});

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describeWithSharedAccounts(
  "GET /files/{file_id} on the real services",
  { start: "2026-03-02T10:00:00.000Z", source: SOURCE, labName: "Lab One" },
  (scope) => {
    const { clock, petri } = scope;
    const { submitted, fileUrl } = resultsHelpers(scope);
    const download = (url: string, headers: Record<string, string> = {}) =>
      petri().app.request(url, { headers }, from(SOURCE));

    /** The signed URL of a new experiment's raw data file `name` holding `content`. */
    async function stored(content: string, name = "plate 1 (µM).csv") {
      const { experiment_id: id } = await submitted(withFile(name, content));
      return fileUrl(id);
    }

    it("serves the bytes to a signed URL without credentials, as a download that is never cached or run", async () => {
      const content = "dose,od600\n0,0.91\n8,0.05\n";
      const response = await download(await stored(content));
      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).toString()).toBe(content);
      const sha256 = createHash("sha256").update(content).digest();
      expect(Object.fromEntries(response.headers)).toMatchObject({
        "content-type": "text/csv",
        "content-length": String(Buffer.byteLength(content)),
        "content-disposition": `attachment; filename="plate 1 (_M).csv"; filename*=UTF-8''plate%201%20%28%C2%B5M%29.csv`,
        "repr-digest": `sha-256=:${sha256.toString("base64")}:`,
        "cache-control": "private, no-store",
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
      });
      // Still rate-limited per address, like every anonymous request.
      expect(response.headers.get("x-ratelimit-limit")).not.toBeNull();
    });

    it("ignores credentials: even an invalid key or token does not stop a valid signed URL", async () => {
      const url = await stored("a,b\n1,2\n");
      expect((await download(url, { "x-api-key": scope.account().apiKey })).status).toBe(200);
      expect((await download(url, { "x-api-key": "pk_live_not_a_key" })).status).toBe(200);
      expect((await download(url, { authorization: "Bearer not-a-token" })).status).toBe(200);
    });

    it("an expired or altered URL is 403", async () => {
      const url = await stored("a,b\n3,4\n");
      const altered = url.replace(/expires=(\d+)/, (_m, e: string) => `expires=${BigInt(e) + 3600n}`);
      const refused = await download(altered);
      expect(refused.status).toBe(403);
      expect((await bodyOf(refused)).error).toMatchObject({
        code: "forbidden",
        details: { reason: "invalid_signature" },
      });
      const fileId = /\/files\/(fil_\w+)/.exec(url)![1]!;
      const otherFile = url.replace(fileId, "fil_00000000000000000000999999");
      expect((await download(otherFile)).status).toBe(403);

      await clock.advance((URL_TTL_SECONDS + 1) * 1000);
      const expired = await download(url);
      expect(expired.status).toBe(403);
      expect((await bodyOf(expired)).error).toMatchObject({
        code: "forbidden",
        message: expect.stringContaining("expired"),
        details: { reason: "link_expired" },
      });
    });

    it("missing or malformed expires and signature are 422", async () => {
      const url = await stored("a,b\n5,6\n");
      const filePath = url.split("?")[0]!;
      for (const query of [
        "",
        "?expires=1772445600",
        "?signature=abc",
        "?expires=soon&signature=abc",
        "?expires=1&signature=a%20b",
      ]) {
        const response = await download(`${filePath}${query}`);
        expect(response.status, query).toBe(422);
        expect((await bodyOf(response)).error.code).toBe("validation_failed");
      }
    });

    it("a stored file whose bytes no longer match their checksum is never sent (500)", async () => {
      const content = `tamper me ${Date.now()}\n`;
      const url = await stored(content, "a.csv");
      let damaged = 0;
      for (const file of await filesUnder(petri().blobDir)) {
        if ((await readFile(file)).toString() !== content) continue;
        await writeFile(file, "tampered");
        damaged += 1;
      }
      expect(damaged).toBe(1);
      const response = await download(url);
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text).error.code).toBe("internal_error");
      expect(text).not.toContain("tampered");
    });
  },
);
