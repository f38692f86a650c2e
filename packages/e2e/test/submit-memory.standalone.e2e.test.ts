/**
 * Results submission memory (issue 13): six parallel submits of about 37 MB each (25 MiB of
 * files, the most a submission may hold, MIME line-wrapped base64) against a standalone process,
 * whose resident memory is read from /proc/<pid>/status. Before the submit path streamed, the
 * same load took the process from 620 MB to 2.1 GB (the body copied in the gateway, parsed, sent
 * as one message, parsed again and decoded: several copies of every body at once).
 *
 * The bound (PEAK_GROWTH_BOUND): streamed, a submit holds one decoded file (at most 10 MiB) while
 * it is stored, plus pieces of 64 KiB in flight: 6 x 10 MiB = 60 MiB. The rest is V8's heap
 * headroom for the short-lived strings the tokenizer makes (collected, but the heap grows
 * before it is). How far V8 lets that garbage pile up before collecting it depends on how busy
 * the machine is (+240 MiB quiet, +375 MiB once in CI beside the bench smoke), so the process
 * runs with its old generation capped at HEAP_CAP_MIB: garbage is then collected before the
 * heap passes the cap, and the growth measures what the path holds (+160 to +215 MiB, quiet or
 * with four CPU burners). 320 MiB is a fifth of the growth the audit saw; a path that held
 * one whole body per request as a string cannot fit the cap at all (6 x 37 MB), and one that
 * held it as a Buffer (outside the heap) goes over the bound (222 MB on top of the rest).
 *
 * Each submit goes over a connection of its own (support/post-body.ts). Building the 37 MB body
 * keeps this test's event loop busy for seconds on a loaded machine; a pooled keep-alive
 * connection the server closed meanwhile (its 5 s idle timeout) would be written to before
 * the close was read, and the write fails with EPIPE: a race of the client, not a property of
 * the server.
 *
 * Also: the files come back byte for byte with their SHA-256, and oversized or invalid files
 * are still refused (413 / 422 with the field).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { freePort } from "@petri/testkit";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, type ExperimentsTarget, newRequester, staffClient } from "./experiments.scenarios.js";
import { claimWhenKnown, newVerifiedOperator, postOpenExperiment } from "./marketplace.scenarios.js";
import { STAFF } from "./support/hosts.js";
import { postBody } from "./support/post-body.js";

const MIB = 1024 * 1024;
const PEAK_GROWTH_BOUND = 320 * MIB;
/** The child's old-generation cap: its live heap is under 128 MiB; 192 leaves room to work. */
const HEAP_CAP_MIB = 192;
const PARALLEL = 6;
const root = path.resolve(import.meta.dirname, "../../..");

/** Resident set (VmRSS) and its peak (VmHWM) of a process, in bytes. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)![1]) * 1024;
  return { rss: kib("VmRSS"), hwm: kib("VmHWM") };
}

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`the standalone process exited (${child.exitCode})`);
    const ready = await fetch(`${url}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the standalone process did not become ready");
}

/** Deterministic bytes that do not compress to nothing (a file's worth of "data"). */
function fileBytes(size: number, seed: number): Buffer {
  const bytes = Buffer.alloc(size);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < size; i += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

/** MIME-style base64: lines of 76 characters with CRLF (the JSON text escapes them as \r\n). */
const wrapped = (bytes: Buffer) => bytes.toString("base64").replace(/.{76}/g, "$&\r\n");

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function resultsBody(uploads: Array<{ name: string; content_base64: string }>) {
  return {
    hypothesis_supported: true,
    confidence_level: "high",
    summary: "The MIC of ampicillin against E. coli ATCC 25922 was 4 ug/mL in all replicates.",
    measurements: [{ metric: "mic", value: 4, unit: "ug/mL", condition: "replicate 1" }],
    raw_data_uploads: uploads.map((upload) => ({ ...upload, format: "bin" })),
    notes: "Large plate-reader exports.",
  };
}

describe("results submission memory, standalone process", { timeout: 240_000 }, () => {
  let child: ChildProcess;
  let dataDir: string;
  let target: ExperimentsTarget;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "petri-e2e-submit-memory-"));
    const port = await freePort();
    child = spawn(
      process.execPath,
      [
        `--max-old-space-size=${HEAP_CAP_MIB}`,
        "--conditions=@petri/source",
        "--import",
        "tsx",
        "packages/standalone/src/main.ts",
      ],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? dataDir,
          PORT: String(port),
          HOST: "127.0.0.1",
          PETRI_DATA_DIR: dataDir,
          // No metrics listener: its default port would collide between parallel runs.
          PETRI_METRICS_PORT: "0",
          PETRI_STAFF_EMAIL: STAFF.email,
          PETRI_STAFF_PASSWORD: STAFF.password,
          LOG_LEVEL: "warn",
        },
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    const url = `http://127.0.0.1:${port}`;
    await waitUntilReady(url, child);
    target = { baseUrls: [url], staff: STAFF };
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("six parallel 37 MB submits grow the process by tens of MB, not by copies of every body", async () => {
    const staff = await staffClient(target);
    const requester = await newRequester(target, "memory-requester");
    // A lab takes at most 5 jobs at once: two labs, three jobs each.
    const labs = [
      (await newVerifiedOperator(target, staff, "memory-lab-a")).client,
      (await newVerifiedOperator(target, staff, "memory-lab-b")).client,
    ];
    const jobs: Array<{ experimentId: string; lab: Client }> = [];
    for (let i = 0; i < PARALLEL; i += 1) {
      const experimentId = await postOpenExperiment(requester, `Memory ${i}`);
      const lab = labs[i % labs.length]!;
      const claim = await claimWhenKnown(lab, experimentId);
      expect(claim.status, claim.text).toBe(200);
      jobs.push({ experimentId, lab });
    }

    // 25 MiB of files, the most a submission may hold: 10 + 10 + 5 MiB.
    const files = [10 * MIB, 10 * MIB, 5 * MIB].map((size, i) => ({
      name: `plate-${i + 1}.bin`,
      bytes: fileBytes(size, i + 1),
    }));
    const body = resultsBody(files.map((file) => ({ name: file.name, content_base64: wrapped(file.bytes) })));
    const bodyText = JSON.stringify(body);
    expect(bodyText.length).toBeGreaterThan(36 * 1000 * 1000);

    const pid = child.pid!;
    // Resets VmHWM to the current RSS (Linux clear_refs 5), so the peak is this test's.
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    const before = memoryOf(pid);
    const answers = await Promise.all(
      jobs.map(({ experimentId, lab }) =>
        postBody(lab.url(`/operator/jobs/${experimentId}/submit`), lab.credentials, bodyText),
      ),
    );
    const after = memoryOf(pid);
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.status).toBe("pending_approval");
    }
    const peakGrowth = after.hwm - before.rss;
    const residualGrowth = after.rss - before.rss;
    console.info(
      `submit memory: RSS before ${(before.rss / MIB).toFixed(0)} MiB, peak ${(after.hwm / MIB).toFixed(0)} MiB ` +
        `(+${(peakGrowth / MIB).toFixed(0)} MiB), after ${(after.rss / MIB).toFixed(0)} MiB (+${(residualGrowth / MIB).toFixed(0)} MiB)`,
    );
    expect(peakGrowth).toBeLessThan(PEAK_GROWTH_BOUND);
    expect(residualGrowth).toBeLessThan(PEAK_GROWTH_BOUND);

    // Every submission lists its files with the right checksums; one is downloaded in full.
    for (const { experimentId } of jobs) {
      const results = await requester.call("GET", `/experiments/${experimentId}/results`);
      expect(results.status, results.text).toBe(200);
      expect(
        results.body.raw_data_files.map((file: { name: string; checksum_sha256: string }) => [
          file.name,
          file.checksum_sha256,
        ]),
      ).toEqual(files.map((file) => [file.name, sha256(file.bytes)]));
    }
    const results = await requester.call("GET", `/experiments/${jobs[0]!.experimentId}/results`);
    for (const [i, file] of (results.body.raw_data_files as Array<{ url: string }>).entries()) {
      const download = await requester.fetch("GET", file.url);
      expect(download.status).toBe(200);
      const bytes = Buffer.from(await download.arrayBuffer());
      expect(bytes.length).toBe(files[i]!.bytes.length);
      expect(sha256(bytes)).toBe(sha256(files[i]!.bytes));
    }
  });

  it("still refuses a file over 10 MiB and files over 25 MiB (413), and bad base64 (422 with the field)", async () => {
    const staff = await staffClient(target);
    const requester = await newRequester(target, "limits-requester");
    const lab = (await newVerifiedOperator(target, staff, "limits-lab")).client;
    const experimentId = await postOpenExperiment(requester, "Limits");
    const claim = await claimWhenKnown(lab, experimentId);
    expect(claim.status, claim.text).toBe(200);
    // Refused bodies are answered before they are read in full: see postBody.
    const submit = (uploads: Array<{ name: string; content_base64: string }>) =>
      postBody(
        lab.url(`/operator/jobs/${experimentId}/submit`),
        lab.credentials,
        JSON.stringify(resultsBody(uploads)),
      );

    const oneTooBig = await submit([
      { name: "a.bin", content_base64: fileBytes(10 * MIB + 1, 7).toString("base64") },
    ]);
    expect(oneTooBig.status, oneTooBig.text).toBe(413);
    expect(oneTooBig.body.error).toMatchObject({
      code: "payload_too_large",
      details: { limit: "file", max_bytes: 10 * MIB, field: "raw_data_uploads[0].content_base64" },
    });

    const nine = fileBytes(9 * MIB, 8).toString("base64");
    const tooMuch = await submit([1, 2, 3].map((n) => ({ name: `f${n}.bin`, content_base64: nine })));
    expect(tooMuch.status, tooMuch.text).toBe(413);
    expect(tooMuch.body.error).toMatchObject({
      code: "payload_too_large",
      details: { limit: "submission", max_bytes: 25 * MIB },
    });

    const bad = await submit([
      { name: "ok.csv", content_base64: Buffer.from("a,b\n1,2\n").toString("base64") },
      { name: "bad.csv", content_base64: "QUJD-_==" },
    ]);
    expect(bad.status, bad.text).toBe(422);
    expect(bad.body.error.code).toBe("validation_failed");
    expect(bad.body.error.details.errors).toEqual([
      expect.objectContaining({ field: "raw_data_uploads[1].content_base64", code: "invalid_value" }),
    ]);

    // Nothing was accepted: the experiment is still claimed and takes a valid submission.
    const ok = await submit([
      { name: "ok.csv", content_base64: Buffer.from("a,b\n1,2\n").toString("base64") },
    ]);
    expect(ok.status, ok.text).toBe(200);
  });
});
