/**
 * The marketplace loop through the gateway (issue 5): operator onboarding and verification,
 * the job feed, claims (and the claim race over the gateway replicas), start, issues, results
 * with files behind signed URLs, approval, disputes and their resolution, the escrow ledger
 * (money conserved after every scenario) and the authorisation matrix. Black box: only the
 * public REST API.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { operatorProfile, verificationRecord } from "@petri/testkit";
import { expect } from "vitest";
import {
  type Client,
  type ExperimentsTarget,
  micRequest,
  newRequester,
  staffClient,
} from "./experiments.scenarios.js";

const POLL_MS = 50;
const EVENTUALLY_MS = 30_000;

/**
 * Polls `probe` until it returns a value (not undefined) or the time runs out. A probe that
 * spends an account's requests over a long wait polls less often (`intervalMs`), or it runs
 * into the account's 100 requests a minute.
 */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  options: { intervalMs?: number; timeoutMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? EVENTUALLY_MS);
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? POLL_MS));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
}

// ---------------------------------------------------------------------------------------
// Operators (docs/intake-model.md, operator profile)

export { operatorProfile, verificationRecord } from "@petri/testkit";

/** A registered account with a submitted (not yet verified) operator profile. */
export async function newUnverifiedOperator(target: ExperimentsTarget, label: string) {
  const account = await newRequester(target, label);
  const submitted = await account.call("POST", "/operator/profile", operatorProfile(`${label} lab`));
  expect([200, 201], submitted.text).toContain(submitted.status);
  expect(submitted.body).toMatchObject({ status: "pending_verification" });
  return { client: account, operatorId: submitted.body.operator_id as string };
}

/** A verified operator whose verification has reached the services that check claims. */
export async function newVerifiedOperator(target: ExperimentsTarget, staff: Client, label: string) {
  const { client, operatorId } = await newUnverifiedOperator(target, label);
  const verified = await staff.call("POST", `/admin/operators/${operatorId}/verify`, verificationRecord());
  expect(verified.status, verified.text).toBe(200);
  expect(verified.body.status).toBe("active");
  // The role follows through identity's consumer (the API key is re-read after its cache).
  await eventually("the operator role", async () => {
    const me = await client.call("GET", "/auth/me");
    return me.body?.account?.role === "operator" ? true : undefined;
  });
  return { client, operatorId };
}

/** Waits until the job feed of `operator` lists `experimentId`, and returns the job. */
export async function jobInFeed(operator: Client, experimentId: string) {
  return eventually(`job ${experimentId} in the feed`, async () => {
    let cursor: string | null = null;
    for (let page = 0; page < 20; page += 1) {
      const query: string = cursor ? `?limit=100&cursor=${encodeURIComponent(cursor)}` : "?limit=100";
      const feed = await operator.call("GET", `/operator/jobs${query}`);
      if (feed.status !== 200) return undefined;
      const job = feed.body.jobs.find((j: { experiment_id: string }) => j.experiment_id === experimentId);
      if (job) return job;
      if (!feed.body.pagination.has_more) return undefined;
      cursor = feed.body.pagination.cursor;
    }
    return undefined;
  });
}

export const CLAIM = {
  equipment_confirmation: true,
  authorization_confirmation: true,
  estimated_start_date: "2026-12-01",
  notes: "We can start next week.",
};

/**
 * Claims once the experiments service knows the operator (its projection of the marketplace's
 * operator events is eventually consistent): retries only the 403 of an operator it does not
 * know yet.
 */
export async function claimWhenKnown(operator: Client, experimentId: string) {
  return eventually(`claim of ${experimentId}`, async () => {
    const claim = await operator.call("POST", `/operator/jobs/${experimentId}/claim`, CLAIM);
    if (claim.status === 403 && /not a verified operator/i.test(claim.text)) return undefined;
    return claim;
  });
}

export async function postOpenExperiment(requester: Client, title?: string) {
  const created = await requester.call("POST", "/experiments", micRequest(title));
  expect(created.status, created.text).toBe(201);
  expect(created.body.status).toBe("open");
  return created.body.experiment_id as string;
}

// ---------------------------------------------------------------------------------------
// Results bodies

const CSV = "well,concentration_ug_ml,od600\nA1,128,0.04\nA2,64,0.05\nA3,4,0.06\nA4,2,0.71\n";
/** A 1x1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

export function resultsBody() {
  return {
    hypothesis_supported: true,
    confidence_level: "high",
    summary: "The MIC of ampicillin against E. coli ATCC 25922 was 4 ug/mL in all replicates.",
    measurements: [
      { metric: "mic", value: 4, unit: "ug/mL", condition: "replicate 1" },
      { metric: "mic", value: 4, unit: "ug/mL", condition: "replicate 2" },
      { metric: "mic", value: 4, unit: "ug/mL", condition: "replicate 3" },
    ],
    statistics: { test_used: "t_test", p_value: 0.01 },
    raw_data_uploads: [
      { name: "plate-reads.csv", format: "csv", content_base64: Buffer.from(CSV).toString("base64") },
    ],
    documentation: {
      photos: [{ step: 1, image_base64: PNG.toString("base64"), caption: "Plate after 18 h" }],
    },
    notes: "Gentamicin control in range.",
  };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Claimed, started, one issue, results submitted: the experiment is pending_approval. */
export async function runToPendingApproval(requester: Client, operator: Client, experimentId: string) {
  const job = await jobInFeed(operator, experimentId);
  const posted = await requester.call("GET", `/experiments/${experimentId}`);
  expect(job).toMatchObject({
    experiment_id: experimentId,
    title: posted.body.title,
    category: "microbiology",
    bsl_level: "BSL-1",
    posted_at: expect.any(String),
  });
  expect(typeof job.budget_usd).toBe("number");
  expect(Array.isArray(job.equipment_required)).toBe(true);

  const claim = await claimWhenKnown(operator, experimentId);
  expect(claim.status, claim.text).toBe(200);
  expect(claim.body).toMatchObject({
    experiment_id: experimentId,
    claimed_at: expect.any(String),
    deadline: expect.any(String),
  });

  const claimed = await requester.call("GET", `/experiments/${experimentId}`);
  expect(claimed.body.status).toBe("claimed");
  expect(claimed.body.operator).toMatchObject({
    lab_name: expect.any(String),
    claimed_at: expect.any(String),
  });

  const early = await requester.call("GET", `/experiments/${experimentId}/results`);
  expect(early.status, early.text).toBe(409);
  expect(early.body.error).toMatchObject({ code: "invalid_state", details: { status: "claimed" } });

  const started = await operator.call("POST", `/operator/jobs/${experimentId}/start`);
  expect(started.status, started.text).toBe(200);
  expect(started.body).toMatchObject({ experiment_id: experimentId, status: "in_progress" });

  const issue = await operator.call("POST", `/operator/jobs/${experimentId}/issues`, {
    description: "One replicate plate was contaminated and has been repeated.",
    severity: "low",
  });
  expect(issue.status, issue.text).toBe(201);
  const withIssue = await requester.call("GET", `/experiments/${experimentId}`);
  expect(withIssue.body.issues).toEqual([
    expect.objectContaining({ severity: "low", description: expect.stringContaining("contaminated") }),
  ]);

  const badBase64 = await operator.call("POST", `/operator/jobs/${experimentId}/submit`, {
    ...resultsBody(),
    raw_data_uploads: [{ name: "broken.csv", format: "csv", content_base64: "not*base64" }],
  });
  expect(badBase64.status, badBase64.text).toBe(422);
  expect(badBase64.text).toContain("raw_data_uploads");

  const submitted = await operator.call("POST", `/operator/jobs/${experimentId}/submit`, resultsBody());
  expect(submitted.status, submitted.text).toBe(200);
  expect(submitted.body).toMatchObject({
    experiment_id: experimentId,
    status: "pending_approval",
    submitted_at: expect.any(String),
  });
  const twice = await operator.call("POST", `/operator/jobs/${experimentId}/submit`, resultsBody());
  expect(twice.status, twice.text).toBe(409);
}

/** The files of the results are served through the signed URLs, without credentials. */
async function checkResultFiles(target: ExperimentsTarget, requester: Client, experimentId: string) {
  const results = await requester.call("GET", `/experiments/${experimentId}/results`);
  expect(results.status, results.text).toBe(200);
  expect(results.body).toMatchObject({
    experiment_id: experimentId,
    hypothesis_supported: true,
    confidence_level: "high",
    structured_data: { statistics: { test_used: "t_test", p_value: 0.01 } },
    operator_notes: "Gentamicin control in range.",
  });
  expect(results.body.structured_data.measurements).toHaveLength(3);
  const [file] = results.body.raw_data_files;
  expect(file).toMatchObject({
    name: "plate-reads.csv",
    format: "csv",
    checksum_sha256: sha256(Buffer.from(CSV)),
  });
  const [photo] = results.body.documentation.photos;
  expect(photo).toMatchObject({ step: 1, url: expect.any(String) });

  const base = target.baseUrls[0];
  const download = await fetch(new URL(file.url, base));
  expect(download.status).toBe(200);
  const bytes = new Uint8Array(await download.arrayBuffer());
  expect(Buffer.from(bytes).toString()).toBe(CSV);
  expect(sha256(bytes)).toBe(file.checksum_sha256);
  const image = await fetch(new URL(photo.url, base));
  expect(image.status).toBe(200);
  expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);

  const tampered = new URL(file.url, base);
  const signature = tampered.searchParams.get("signature") ?? "";
  tampered.searchParams.set(
    "signature",
    `${signature.slice(0, -2)}${signature.endsWith("aa") ? "bb" : "aa"}`,
  );
  expect((await fetch(tampered)).status).toBe(403);
  const extended = new URL(file.url, base);
  extended.searchParams.set("expires", String(Number(extended.searchParams.get("expires")) + 3600));
  expect((await fetch(extended)).status).toBe(403);
}

interface Payment {
  status: string;
  returned_to_requester_usd: number;
  paid_to_operator_usd: number;
  held_usd: number;
  released_usd: number;
  refunded_usd: number;
  compensated_usd: number;
  still_held_usd: number;
}

const cents = (usd: number) => Math.round(usd * 100);

/** held = released + refunded + compensated + dispute shares + still held, per experiment and overall. */
async function expectMoneyConserved(staff: Client, requester: Client, experimentId: string, status: string) {
  const payment = await eventually(`payment ${status} of ${experimentId}`, async () => {
    const response = await requester.call("GET", `/experiments/${experimentId}/payment`);
    return response.status === 200 && response.body.status === status
      ? (response.body as Payment)
      : undefined;
  });
  expect(cents(payment.held_usd)).toBeGreaterThan(0);
  const ledger = await staff.call("GET", "/admin/ledger");
  expect(ledger.status, ledger.text).toBe(200);
  expect(ledger.body.balanced, ledger.text).toBe(true);
  expect(ledger.body.violations).toEqual([]);
  return payment;
}

// ---------------------------------------------------------------------------------------
// Scenarios

/** post -> claim -> start -> issue -> submit with files -> results -> approve; money released. */
export async function approvalScenario(target: ExperimentsTarget): Promise<void> {
  const staff = await staffClient(target);
  const requester = await newRequester(target, "approver");
  const { client: operator, operatorId } = await newVerifiedOperator(target, staff, "approval-lab");
  const id = await postOpenExperiment(requester);

  await runToPendingApproval(requester, operator, id);
  await checkResultFiles(target, requester, id);
  const operatorView = await operator.call("GET", `/experiments/${id}/results`);
  expect(operatorView.status, operatorView.text).toBe(200);

  const badRating = await requester.call("POST", `/experiments/${id}/approve`, { rating: 6 });
  expect(badRating.status, badRating.text).toBe(422);
  const approved = await requester.call("POST", `/experiments/${id}/approve`, {
    rating: 5,
    feedback: "Clean data, well documented.",
  });
  expect(approved.status, approved.text).toBe(200);
  expect(approved.body).toEqual({ experiment_id: id, status: "completed", payment_released: true });
  const again = await requester.call("POST", `/experiments/${id}/approve`, { rating: 5 });
  expect(again.status, again.text).toBe(409);

  const payment = await expectMoneyConserved(staff, requester, id, "released");
  expect(payment.released_usd).toBe(payment.held_usd);
  expect(payment.still_held_usd).toBe(0);
  // The experiment record shows the ledger's state once its PaymentUpdated arrives.
  const record = await eventually("the payment state on the experiment", async () => {
    const response = await requester.call("GET", `/experiments/${id}`);
    return response.body.payment?.status === "released" ? response : undefined;
  });
  expect(record.body).toMatchObject({ status: "completed", payment: { status: "released" } });
  expect(record.body.approval).toMatchObject({ rating: 5 });

  const matches = await requester.call("GET", `/experiments/${id}/matches`);
  expect(matches.status, matches.text).toBe(200);
  expect(Array.isArray(matches.body.labs)).toBe(true);
  const operatorRecord = await staff.call("GET", `/admin/operators/${operatorId}`);
  expect(operatorRecord.body.quality).toMatchObject({ total_jobs_completed: 1 });
}

/** A body of the README's marketplace loop, as a reader posts it with `-d @docs/examples/<name>`. */
function docsExample(name: string): unknown {
  return JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../../docs/examples", name), "utf8"));
}

/**
 * The README's marketplace loop with its own files: the example lab (profile.json, verified
 * with verification.json) finds the example request (experiment.json) in its feed and may
 * claim it, and the example results (results.json) are accepted for it. The files must tell
 * one story; a lab verified for another assay would get 403 at the claim.
 */
export async function readmeLoopScenario(target: ExperimentsTarget): Promise<void> {
  const staff = await staffClient(target);
  const requester = await newRequester(target, "readme-requester");
  const lab = await newRequester(target, "readme-lab");
  const profile = await lab.call("POST", "/operator/profile", docsExample("profile.json"));
  expect([200, 201], profile.text).toContain(profile.status);
  const operatorId = profile.body.operator_id as string;
  const verified = await staff.call(
    "POST",
    `/admin/operators/${operatorId}/verify`,
    docsExample("verification.json"),
  );
  expect(verified.status, verified.text).toBe(200);
  expect(verified.body.status).toBe("active");

  const key = `readme-${Date.now()}`;
  const created = await requester.call("POST", "/experiments", docsExample("experiment.json"), {
    "idempotency-key": key,
  });
  expect(created.status, created.text).toBe(201);
  expect(created.body.status).toBe("open");
  const id = created.body.experiment_id as string;
  const retried = await requester.call("POST", "/experiments", docsExample("experiment.json"), {
    "idempotency-key": key,
  });
  expect(retried.body.experiment_id).toBe(id);

  await jobInFeed(lab, id);
  const claim = await claimWhenKnown(lab, id);
  expect(claim.status, claim.text).toBe(200);
  const started = await lab.call("POST", `/operator/jobs/${id}/start`);
  expect(started.status, started.text).toBe(200);
  const submitted = await lab.call("POST", `/operator/jobs/${id}/submit`, docsExample("results.json"));
  expect(submitted.status, submitted.text).toBe(200);
  const results = await requester.call("GET", `/experiments/${id}/results`);
  expect(results.status, results.text).toBe(200);
  const approved = await requester.call("POST", `/experiments/${id}/approve`, { rating: 5 });
  expect(approved.status, approved.text).toBe(200);
  expect(approved.body).toEqual({ experiment_id: id, status: "completed", payment_released: true });
}

/** ... submit -> dispute -> staff read (with the automatic evaluation) -> resolve with a split. */
export async function disputeScenario(target: ExperimentsTarget): Promise<void> {
  const staff = await staffClient(target);
  const requester = await newRequester(target, "disputer");
  const { client: operator } = await newVerifiedOperator(target, staff, "dispute-lab");
  const id = await postOpenExperiment(requester);
  await runToPendingApproval(requester, operator, id);

  const tooShort = await requester.call("POST", `/experiments/${id}/dispute`, {
    reason: "other",
    description: "bad",
  });
  expect(tooShort.status, tooShort.text).toBe(422);
  const disputed = await requester.call("POST", `/experiments/${id}/dispute`, {
    reason: "results_incorrect",
    description: "The positive control is missing from the plate reads, so the MIC cannot be trusted.",
    evidence_urls: ["https://example.org/evidence/plate-map.pdf"],
  });
  expect(disputed.status, disputed.text).toBe(201);
  expect(disputed.body).toMatchObject({
    experiment_id: id,
    status: "disputed",
    dispute_id: expect.stringMatching(/^dsp_/),
  });
  const disputeId = disputed.body.dispute_id as string;
  const lateApprove = await requester.call("POST", `/experiments/${id}/approve`, {});
  expect(lateApprove.status, lateApprove.text).toBe(409);

  const listed = await staff.call("GET", "/admin/disputes?status=open&limit=100");
  expect(listed.status, listed.text).toBe(200);
  expect(listed.body.disputes.map((d: { dispute_id: string }) => d.dispute_id)).toContain(disputeId);
  const read = await staff.call("GET", `/admin/disputes/${disputeId}`);
  expect(read.status, read.text).toBe(200);
  expect(read.body.results).toMatchObject({ experiment_id: id });
  expect(JSON.stringify(read.body.evaluation)).toContain("mic");
  expect((await requester.call("GET", `/admin/disputes/${disputeId}`)).status).toBe(403);

  const payment = await expectMoneyConserved(staff, requester, id, "disputed");
  const held = cents(payment.held_usd);
  const toRequester = Math.floor(held / 3);
  const badSplit = await staff.call("POST", `/admin/disputes/${disputeId}/resolve`, {
    outcome: "split",
    requester_amount_usd: toRequester / 100,
    operator_amount_usd: 1,
    note: "amounts do not add up",
  });
  expect(badSplit.status, badSplit.text).toBe(422);
  const resolved = await staff.call("POST", `/admin/disputes/${disputeId}/resolve`, {
    outcome: "split",
    requester_amount_usd: toRequester / 100,
    operator_amount_usd: (held - toRequester) / 100,
    note: "Control missing; partial credit for the work done.",
  });
  expect(resolved.status, resolved.text).toBe(200);
  expect((await requester.call("GET", `/experiments/${id}`)).body.status).toBe("resolved");
  const settled = await expectMoneyConserved(staff, requester, id, "resolved");
  expect(settled.still_held_usd).toBe(0);
  expect(cents(settled.returned_to_requester_usd)).toBe(toRequester);
  expect(cents(settled.paid_to_operator_usd)).toBe(held - toRequester);
}

/** N verified operators claim one job at once through every gateway: exactly one wins. */
export async function claimRaceScenario(target: ExperimentsTarget, claimants = 6): Promise<void> {
  const staff = await staffClient(target);
  const requester = await newRequester(target, "race-requester");
  const operators = [];
  for (let i = 0; i < claimants; i += 1) {
    operators.push((await newVerifiedOperator(target, staff, `race-lab-${i}`)).client);
  }
  // Every claimant must be known to the claim check before the race starts.
  const warmup = await postOpenExperiment(requester, "Warm-up job for the race");
  for (const operator of operators) await jobInFeed(operator, warmup);
  const id = await postOpenExperiment(requester, "The contested job");
  for (const operator of operators) await jobInFeed(operator, id);

  const results = await Promise.all(
    operators.map((operator) => operator.call("POST", `/operator/jobs/${id}/claim`, CLAIM)),
  );
  const statuses = results.map((r) => r.status).sort();
  const winners = results.filter((r) => r.status === 200);
  expect(winners, results.map((r) => r.text).join("\n")).toHaveLength(1);
  expect(statuses.filter((s) => s === 409)).toHaveLength(claimants - 1);
  for (const loser of results.filter((r) => r.status === 409)) {
    expect(loser.body.error.code).toBe("experiment_already_claimed");
  }
  const record = await requester.call("GET", `/experiments/${id}`);
  expect(record.body.status).toBe("claimed");
}

/**
 * Approve and dispute sent together: when they overlap exactly one wins (the other 409); when
 * they happen to run one after the other, the only possible order is approval first and then a
 * dispute of completed results. Never a dispute first and then an approval; the ledger agrees.
 */
export async function approveDisputeRaceScenario(target: ExperimentsTarget, trials = 3): Promise<void> {
  const staff = await staffClient(target);
  const requester = await newRequester(target, "racing-requester");
  const { client: operator } = await newVerifiedOperator(target, staff, "racing-lab");
  for (let trial = 0; trial < trials; trial += 1) {
    const id = await postOpenExperiment(requester, `Approve or dispute, trial ${trial}`);
    await runToPendingApproval(requester, operator, id);
    const [approve, dispute] = await Promise.all([
      requester.call("POST", `/experiments/${id}/approve`, { rating: 4 }),
      requester.call("POST", `/experiments/${id}/dispute`, {
        reason: "results_incomplete",
        description: "The MBC readout requested in the protocol is missing from the results.",
      }),
    ]);
    const outcome = `${approve.text}\n${dispute.text}`;
    const record = (await requester.call("GET", `/experiments/${id}`)).body;
    if (approve.status < 300 && dispute.status < 300) {
      // Not concurrent after all (one engine serialises transactions): the approval came
      // first and the dispute is a legitimate dispute of completed results, within its window.
      expect(record.dispute, outcome).toMatchObject({ raised_from: "completed" });
      expect(record.status).toBe("disputed");
      await expectMoneyConserved(staff, requester, id, "disputed");
      continue;
    }
    const won = [approve, dispute].filter((r) => r.status < 300);
    expect(won, outcome).toHaveLength(1);
    expect(
      [approve, dispute].filter((r) => r.status === 409),
      outcome,
    ).toHaveLength(1);
    expect(record.status).toBe(approve.status < 300 ? "completed" : "disputed");
    if (dispute.status < 300) expect(record.dispute).toMatchObject({ raised_from: "pending_approval" });
    await expectMoneyConserved(staff, requester, id, approve.status < 300 ? "released" : "disputed");
  }
}

/**
 * Every operator and results endpoint against requester, another requester, the operator,
 * another operator, an unverified operator and staff.
 */
export async function authorizationMatrixScenario(target: ExperimentsTarget): Promise<void> {
  const staff = await staffClient(target);
  const requester = await newRequester(target, "matrix-requester");
  const otherRequester = await newRequester(target, "matrix-other");
  const { client: operator } = await newVerifiedOperator(target, staff, "matrix-lab");
  const { client: otherOperator } = await newVerifiedOperator(target, staff, "matrix-other-lab");
  const { client: unverified } = await newUnverifiedOperator(target, "matrix-unverified");

  const open = await postOpenExperiment(requester, "Matrix: open job");
  await jobInFeed(operator, open);
  await jobInFeed(otherOperator, open);

  // The job feed: verified operators only.
  expect((await operator.call("GET", "/operator/jobs")).status).toBe(200);
  for (const caller of [requester, otherRequester, unverified]) {
    expect((await caller.call("GET", "/operator/jobs")).status).toBe(403);
  }
  expect((await staff.call("GET", "/operator/jobs")).status).toBe(403);

  // Claim: requesters and unverified operators 403 (the job itself stays open).
  for (const caller of [requester, otherRequester, unverified, staff]) {
    const claim = await caller.call("POST", `/operator/jobs/${open}/claim`, CLAIM);
    expect(claim.status, claim.text).toBe(403);
  }
  const noConfirmation = await operator.call("POST", `/operator/jobs/${open}/claim`, {
    ...CLAIM,
    authorization_confirmation: false,
  });
  expect(noConfirmation.status, noConfirmation.text).toBe(422);
  const claim = await claimWhenKnown(operator, open);
  expect(claim.status, claim.text).toBe(200);

  // Start, issues and submit: the assigned operator only.
  for (const [caller, expected] of [
    [requester, 403],
    [otherRequester, 404],
    [otherOperator, 403],
    [unverified, 403],
    [staff, 403],
  ] as const) {
    const start = await caller.call("POST", `/operator/jobs/${open}/start`);
    expect([expected, 403, 404], `start as ${caller.accountId}: ${start.text}`).toContain(start.status);
    expect(start.status).not.toBe(200);
    const issue = await caller.call("POST", `/operator/jobs/${open}/issues`, {
      description: "An issue nobody assigned may report.",
      severity: "low",
    });
    expect([403, 404]).toContain(issue.status);
    const submit = await caller.call("POST", `/operator/jobs/${open}/submit`, resultsBody());
    expect([403, 404]).toContain(submit.status);
  }
  expect((await operator.call("POST", `/operator/jobs/${open}/start`)).status).toBe(200);
  expect((await operator.call("POST", `/operator/jobs/${open}/submit`, resultsBody())).status).toBe(200);

  // Results: the requester, the assigned operator and staff; nobody else.
  for (const caller of [requester, operator, staff]) {
    const results = await caller.call("GET", `/experiments/${open}/results`);
    expect(results.status, results.text).toBe(200);
  }
  for (const caller of [otherRequester, otherOperator, unverified]) {
    expect((await caller.call("GET", `/experiments/${open}/results`)).status).toBe(404);
  }

  // Approve and dispute: the requester only.
  for (const caller of [otherRequester, otherOperator, unverified]) {
    expect((await caller.call("POST", `/experiments/${open}/approve`, {})).status).toBe(404);
  }
  for (const caller of [operator, staff]) {
    expect((await caller.call("POST", `/experiments/${open}/approve`, {})).status).toBe(403);
    const dispute = await caller.call("POST", `/experiments/${open}/dispute`, {
      reason: "results_incomplete",
      description: "Only the requester may dispute these results.",
    });
    expect(dispute.status).toBe(403);
  }

  // Staff endpoints.
  for (const caller of [requester, operator, unverified]) {
    expect((await caller.call("GET", "/admin/operators")).status).toBe(403);
    expect((await caller.call("GET", "/admin/disputes")).status).toBe(403);
    expect((await caller.call("GET", "/admin/ledger")).status).toBe(403);
  }
  expect((await requester.call("POST", `/experiments/${open}/approve`, { rating: 3 })).status).toBe(200);
  await expectMoneyConserved(staff, requester, open, "released");
}
