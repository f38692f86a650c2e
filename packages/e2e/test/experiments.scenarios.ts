/**
 * Experiment requests through the gateway (issue 4): validation, estimates, templates, the
 * requester's lifecycle, drafts, staff review, protocol design, idempotency and BOLA. Black
 * box: only the public REST API; the request bodies are written here (the standard MIC
 * request in @petri/testkit, shared with the benchmark); no service code is imported.
 */
import { micRequest } from "@petri/testkit";
import { expect } from "vitest";

export interface ExperimentsTarget {
  /** The gateway(s) to call; requests of one scenario are spread over all of them. */
  baseUrls: string[];
  /** The staff account bootstrapped from PETRI_STAFF_EMAIL / PETRI_STAFF_PASSWORD. */
  staff: { email: string; password: string };
}

const JSON_HEADERS = { "content-type": "application/json" };

/** A client of one account (API key) against the target's gateways. */
export class Client {
  private turn = 0;
  constructor(
    private readonly target: ExperimentsTarget,
    readonly credentials: Record<string, string>,
    readonly accountId: string,
  ) {}

  /** The next gateway in turn (round robin over the replicas). */
  url(path: string): string {
    const urls = this.target.baseUrls;
    return `${urls[this.turn++ % urls.length]}${path}`;
  }

  fetch(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    return fetch(this.url(path), {
      method,
      headers: { ...this.credentials, ...(body !== undefined && JSON_HEADERS), ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  }

  /** Status and parsed body. */
  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await this.fetch(method, path, body, headers);
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      body: text ? JSON.parse(text) : undefined,
    };
  }
}

/** A new requester account (one anonymous request: registration returns an API key). */
export async function newRequester(target: ExperimentsTarget, label: string): Promise<Client> {
  const email = `${label}+${Date.now()}-${Math.random().toString(36).slice(2)}@example.org`;
  const response = await fetch(`${target.baseUrls[0]}/auth/register`, {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ email, password: "a long enough password", name: label }),
  });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { account: { id: string }; api_key_secret: string };
  return new Client(target, { "x-api-key": body.api_key_secret }, body.account.id);
}

/** The bootstrapped staff account, with an access token. */
export async function staffClient(target: ExperimentsTarget): Promise<Client> {
  const response = await fetch(`${target.baseUrls[0]}/auth/token`, {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify(target.staff),
  });
  expect(response.status).toBe(200);
  const { access_token } = (await response.json()) as { access_token: string };
  return new Client(target, { authorization: `Bearer ${access_token}` }, "staff");
}

// ---------------------------------------------------------------------------------------
// Request bodies (docs/intake-model.md)

export { micRequest } from "@petri/testkit";

/** A CUSTOM request: custom protocols go to staff review first (pending_review). */
export function customRequest() {
  return {
    experiment_type: "CUSTOM",
    title: "Custom growth assay of B. subtilis with xylose",
    hypothesis: {
      statement: "Bacillus subtilis 168 grows at least 20% faster with 1% xylose than without it",
      null_hypothesis: "Xylose does not change the growth rate of Bacillus subtilis 168 by 20% or more",
    },
    compliance: { bsl: "BSL-1" },
    turnaround_budget: { budget_max_usd: 3000, desired_turnaround_days: 40 },
    custom_protocol: {
      protocol_title: "Growth curves with and without xylose",
      protocol_version: "1.0",
      brief_description: "Grow B. subtilis 168 in LB with and without 1% xylose and read OD600 hourly.",
      steps: [
        {
          step_number: 1,
          action: "Inoculate LB and LB + 1% xylose from an overnight culture to OD600 0.05",
          duration: { value: 30, unit: "minutes" },
          temperature: { value: 37, unit: "C", tolerance: 1 },
          critical_parameters: ["starting OD600 0.05"],
          expected_outcome: "Two cultures at OD600 0.05",
        },
        {
          step_number: 2,
          action: "Incubate shaking and read OD600 every hour",
          duration: { value: 12, unit: "hours" },
          temperature: { value: 37, unit: "C", tolerance: 1 },
          critical_parameters: ["shaking at 200 rpm", "hourly reads"],
          expected_outcome: "Growth curves for both conditions",
        },
      ],
      equipment_required: [{ name: "plate reader", specifications: "OD600", required: true }],
      safety_notes: ["BSL-1 organism"],
    },
    materials_provided: [
      { name: "Bacillus subtilis 168", specification: "glycerol stock", provided_by_requester: true },
      { name: "D-xylose", specification: "ACS grade", cas_number: "58-86-6", provided_by_requester: false },
    ],
    replicates: { technical: 3, biological: 3 },
  };
}

/** A request for staff to design the protocol (protocol_design_requested). */
export function designRequest() {
  return {
    ...micRequest("MIC of a new peptide, protocol to be designed"),
    materials_provided: [
      { name: "Peptide P-17", specification: "lyophilised, 5 mg", provided_by_requester: true },
      { name: "Cation-adjusted Mueller-Hinton broth", provided_by_requester: false },
    ],
    protocol: {
      type: "protocol_design_requested",
      protocol_design_brief:
        "Determine the MIC of peptide P-17 against E. coli; we need help choosing the method.",
    },
  };
}

/** A protocol staff propose (the shape of protocol.custom_protocol). */
export function proposedProtocol(version: string) {
  return {
    protocol_title: "Broth microdilution MIC of peptide P-17",
    protocol_version: version,
    steps: [
      {
        step_number: 1,
        action: "Prepare two-fold dilutions of P-17 in cation-adjusted Mueller-Hinton broth",
        duration: { value: 60, unit: "minutes" },
        critical_parameters: ["low-binding polypropylene plates"],
        expected_outcome: "Dilution series from 64 to 0.125 ug/mL",
      },
      {
        step_number: 2,
        action: "Inoculate at 5e5 CFU/mL and incubate",
        duration: { value: 18, unit: "hours" },
        temperature: { value: 35, unit: "C", tolerance: 2 },
        critical_parameters: ["inoculum 5e5 CFU/mL"],
        expected_outcome: "Visible growth in the growth control",
      },
    ],
    equipment_required: [{ name: "incubator", specifications: "35 C", required: true }],
    safety_notes: [],
  };
}

const DECIMALS = /^-?\d+(\.\d{1,2})?$/;

/** A USD amount: a JSON number with at most two decimals. */
function expectUsd(value: unknown): void {
  expect(typeof value).toBe("number");
  expect(JSON.stringify(value)).toMatch(DECIMALS);
}

function expectEstimate(estimate: any): void {
  const { low, typical, high } = estimate.estimated_cost_usd;
  for (const amount of [low, typical, high, ...Object.values(estimate.cost_breakdown)]) expectUsd(amount);
  expect(low).toBeLessThanOrEqual(typical);
  expect(typical).toBeLessThanOrEqual(high);
  expect(typical).toBeGreaterThan(0);
  expect(Object.keys(estimate.cost_breakdown).sort()).toEqual(
    ["equipment", "labor", "materials", "platform_fee", "privacy_premium"].sort(),
  );
  expect(Number.isInteger(estimate.estimated_turnaround_days.standard)).toBe(true);
  expect(Number.isInteger(estimate.estimated_turnaround_days.expedited)).toBe(true);
  expect(["high", "medium", "low", "none"]).toContain(estimate.operator_availability);
}

function paths(errors: Array<{ path: string }>): string[] {
  return errors.map((error) => error.path);
}

// ---------------------------------------------------------------------------------------
// Scenarios

/** POST /validate: a valid request, an invalid one with paths, a controlled substance. */
export async function validateScenario(target: ExperimentsTarget): Promise<void> {
  const requester = await newRequester(target, "validator");

  const valid = await requester.call("POST", "/validate", micRequest());
  expect(valid.status, valid.text).toBe(200);
  expect(valid.body).toMatchObject({ valid: true, errors: [], safety_flags: [] });
  for (const warning of valid.body.warnings) {
    expect(Object.keys(warning).sort()).toEqual(["code", "message", "path", "suggestion"]);
  }

  const few = await requester.call("POST", "/validate", { ...micRequest(), replicates: { technical: 1 } });
  expect(few.status, few.text).toBe(200);
  expect(few.body.warnings.map((w: { code: string }) => w.code)).toContain("low_replicates");

  const { hypothesis: _dropped, ...withoutHypothesis } = micRequest();
  const invalid = await requester.call("POST", "/validate", {
    ...withoutHypothesis,
    experiment_type: "WESTERN_BLOT",
    turnaround_budget: { budget_max_usd: "a lot" },
  });
  expect(invalid.status, invalid.text).toBe(200);
  expect(invalid.body.valid).toBe(false);
  const byPath = Object.fromEntries(
    invalid.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
  );
  expect(byPath).toMatchObject({
    experiment_type: "invalid_experiment_type",
    "turnaround_budget.budget_max_usd": "invalid_value",
  });
  expect(paths(invalid.body.errors).some((p) => p.startsWith("hypothesis"))).toBe(true);

  const controlled = micRequest();
  controlled.mic_mbc.compound_name = "sarin";
  const flagged = await requester.call("POST", "/validate", controlled);
  expect(flagged.status, flagged.text).toBe(200);
  expect(flagged.body.safety_flags).toContain("controlled_substance");
  expect(flagged.body.valid).toBe(false);

  const created = await requester.call("POST", "/experiments", controlled);
  expect(created.status, created.text).toBe(403);
  expect(created.body.error.code).toBe("safety_rejected");
  expect(created.body.error.details.safety_flags).toContain("controlled_substance");

  const bsl3 = await requester.call("POST", "/experiments", {
    ...micRequest(),
    compliance: { bsl: "BSL-3" },
  });
  expect(bsl3.status, bsl3.text).toBe(403);
  expect(bsl3.body.error.details.safety_flags).toContain("bsl_level_exceeded");

  const rejected = await requester.call("POST", "/experiments", {
    ...withoutHypothesis,
    experiment_type: "WESTERN_BLOT",
  });
  expect(rejected.status, rejected.text).toBe(422);
  expect(rejected.body.error.code).toBe("validation_failed");
  const rejectedErrors = rejected.body.error.details.errors as Array<{ path: string; code: string }>;
  expect(rejectedErrors).toContainEqual(
    expect.objectContaining({ path: "experiment_type", code: "invalid_experiment_type" }),
  );

  const hypothesis = await requester.call("POST", "/validate/hypothesis", {
    statement: "The drug works",
    null_hypothesis: "",
    rationale: "",
  });
  expect(hypothesis.status, hypothesis.text).toBe(200);
  expect(typeof hypothesis.body.valid).toBe("boolean");
  expect(Array.isArray(hypothesis.body.errors)).toBe(true);
  expect(hypothesis.body.suggestions.length).toBeGreaterThan(0);
  const testable = await requester.call("POST", "/validate/hypothesis", {
    statement: micRequest().hypothesis.statement,
    null_hypothesis: micRequest().hypothesis.null_hypothesis,
    rationale: "baseline",
  });
  expect(testable.status, testable.text).toBe(200);
  expect(testable.body.valid).toBe(true);
}

/** POST /estimate with a partial body; GET /templates and one template. */
export async function estimateAndTemplatesScenario(target: ExperimentsTarget): Promise<void> {
  const requester = await newRequester(target, "estimator");

  const partial = await requester.call("POST", "/estimate", { experiment_type: "QPCR_EXPRESSION" });
  expect(partial.status, partial.text).toBe(200);
  expectEstimate(partial.body);
  const full = await requester.call("POST", "/estimate", micRequest());
  expect(full.status, full.text).toBe(200);
  expectEstimate(full.body);
  const urgent = await requester.call("POST", "/estimate", {
    ...micRequest(),
    turnaround_budget: { ...micRequest().turnaround_budget, priority: "urgent" },
  });
  expect(urgent.body.estimated_cost_usd.typical).toBeGreaterThan(full.body.estimated_cost_usd.typical);

  const list = await requester.call("GET", "/templates");
  expect(list.status, list.text).toBe(200);
  const templates = list.body.templates as Array<Record<string, string>>;
  expect(templates.length).toBeGreaterThanOrEqual(8);
  for (const item of templates) {
    expect(item).toEqual(
      expect.objectContaining({
        id: expect.stringMatching(/-v\d+$/),
        name: expect.any(String),
        description: expect.any(String),
        category: expect.any(String),
        bsl_level: expect.stringMatching(/^BSL-\d$/),
        estimated_cost_range: expect.any(String),
      }),
    );
  }
  const micro = await requester.call("GET", "/templates?category=microbiology");
  expect(micro.body.templates.length).toBeGreaterThan(0);
  expect(micro.body.templates.every((t: { category: string }) => t.category === "microbiology")).toBe(true);
  const bsl1 = await requester.call("GET", "/templates?bsl_level=BSL1");
  const bslHyphen = await requester.call("GET", "/templates?bsl_level=BSL-1");
  expect(bsl1.body).toEqual(bslHyphen.body);
  expect(bsl1.body.templates.every((t: { bsl_level: string }) => t.bsl_level === "BSL-1")).toBe(true);

  const one = await requester.call("GET", `/templates/${encodeURIComponent(templates[0]!.id!)}`);
  expect(one.status, one.text).toBe(200);
  expect(one.body).toMatchObject({ id: templates[0]!.id, version: expect.any(String) });
  for (const field of [
    "parameters",
    "equipment_required",
    "typical_materials",
    "protocol_steps",
    "estimated_duration_hours",
    "estimated_cost_usd",
  ]) {
    expect(one.body, field).toHaveProperty(field);
  }
  expect((await requester.call("GET", "/templates/no-such-template-v1")).status).toBe(404);
}

/** create -> get -> list (cursor paging) -> patch -> cancel (full refund) -> 409 afterwards. */
export async function requesterLifecycleScenario(target: ExperimentsTarget): Promise<void> {
  const requester = await newRequester(target, "lifecycle");

  const created = await requester.call("POST", "/experiments", micRequest());
  expect(created.status, created.text).toBe(201);
  const submission = created.body;
  expect(submission).toMatchObject({
    experiment_id: expect.stringMatching(/^exp_/),
    status: "open",
    created_at: expect.any(String),
    links: {
      self: `/experiments/${submission.experiment_id}`,
      results: `/experiments/${submission.experiment_id}/results`,
      cancel: `/experiments/${submission.experiment_id}`,
    },
  });
  expectUsd(submission.estimated_cost_usd);
  expect(Number.isInteger(submission.estimated_turnaround_days)).toBe(true);
  expect(Array.isArray(submission.warnings)).toBe(true);
  expect(created.headers.get("location")).toBe(submission.links.self);
  expect(created.headers.get("idempotent-replayed")).toBeNull();
  const id = submission.experiment_id as string;

  const details = await requester.call("GET", `/experiments/${id}`);
  expect(details.status, details.text).toBe(200);
  expect(details.body).toMatchObject({
    experiment_id: id,
    status: "open",
    experiment_type: "MIC_MBC_ASSAY",
    title: micRequest().title,
    requester_account_id: requester.accountId,
    operator: null,
    cancellation: null,
    protocol_proposal: null,
    links: submission.links,
  });
  expect(details.body.request.mic_mbc.compound_name).toBe("ampicillin");
  expectEstimate(details.body.estimate);
  expect(details.body.estimate.estimated_cost_usd.typical).toBe(submission.estimated_cost_usd);

  // Two more, then page through all three, newest first.
  for (const title of ["MIC of ampicillin, second strain run", "MIC of ampicillin, third strain run"]) {
    expect((await requester.call("POST", "/experiments", micRequest(title))).status).toBe(201);
  }
  const first = await requester.call("GET", "/experiments?limit=2&include_total=true");
  expect(first.status, first.text).toBe(200);
  expect(first.body.experiments).toHaveLength(2);
  expect(first.body.pagination).toMatchObject({ total: 3, has_more: true, cursor: expect.any(String) });
  const second = await requester.call(
    "GET",
    `/experiments?limit=2&cursor=${encodeURIComponent(first.body.pagination.cursor)}`,
  );
  expect(second.body.experiments).toHaveLength(1);
  // The total is counted only when asked for.
  expect(second.body.pagination).toMatchObject({ total: null, has_more: false, cursor: null });
  const listed = [...first.body.experiments, ...second.body.experiments].map(
    (e: { experiment_id: string }) => e.experiment_id,
  );
  expect(new Set(listed).size).toBe(3);
  expect(listed.at(-1)).toBe(id);
  const filtered = await requester.call(
    "GET",
    `/experiments?status=open&created_after=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`,
  );
  expect(filtered.body.pagination.total).toBe(3);
  const none = await requester.call("GET", "/experiments?status=cancelled");
  expect(none.body).toEqual({ experiments: [], pagination: { total: 0, cursor: null, has_more: false } });
  for (const query of ["limit=0", "limit=101", "status=nope", "created_after=yesterday"]) {
    const bad = await requester.call("GET", `/experiments?${query}`);
    expect(bad.status, query).toBe(422);
    expect(bad.body.error.code).toBe("validation_failed");
  }

  // PATCH before a claim: the request changes and is re-estimated.
  const patched = await requester.call("PATCH", `/experiments/${id}`, {
    constraints: { budget_max_usd: 2500 },
    turnaround_priority: "expedited",
    communication_preferences: { notification_events: ["claimed", "completed", "approved"] },
  });
  expect(patched.status, patched.text).toBe(200);
  expect(patched.body.experiment_id).toBe(id);
  expect(patched.body.status).toBe("open");
  expect(JSON.stringify(patched.body.request)).toContain("2500");
  expect(patched.body.request.communication_preferences.notification_events).toContain("approved");
  expect(patched.body.estimate.estimated_cost_usd.typical).toBeGreaterThan(
    details.body.estimate.estimated_cost_usd.typical,
  );
  const notPatchable = await requester.call("PATCH", `/experiments/${id}`, { title: "renamed" });
  expect(notPatchable.status, notPatchable.text).toBe(422);

  // DELETE: a reason is required; open -> full refund of what is held.
  const noReason = await requester.call("DELETE", `/experiments/${id}`, {});
  expect(noReason.status, noReason.text).toBe(422);
  const held = patched.body.hold_amount_usd as number;
  const cancelled = await requester.call("DELETE", `/experiments/${id}`, { reason: "funding moved" });
  expect(cancelled.status, cancelled.text).toBe(200);
  expect(cancelled.body).toMatchObject({
    experiment_id: id,
    status: "cancelled",
    reason: "funding moved",
    refund_status: "full",
    refund_amount_usd: held,
  });
  expectUsd(cancelled.body.refund_amount_usd);
  expect(cancelled.body.refund_amount_usd).toBeGreaterThan(0);

  const again = await requester.call("DELETE", `/experiments/${id}`, { reason: "twice" });
  expect(again.status, again.text).toBe(409);
  expect(again.body.error).toMatchObject({ code: "invalid_state", details: { status: "cancelled" } });
  const late = await requester.call("PATCH", `/experiments/${id}`, { turnaround_days: 20 });
  expect(late.status, late.text).toBe(409);
  expect(late.body.error.code).toBe("invalid_state");
  expect(late.body.error.details).toMatchObject({ status: "cancelled", allowed_from: expect.any(Array) });
  expect((await requester.call("GET", `/experiments/${id}`)).body.cancellation).toMatchObject({
    reason: "funding moved",
    refund_status: "full",
  });
}

/** ?draft=true saves an incomplete request; submit validates it in full. */
export async function draftScenario(target: ExperimentsTarget): Promise<void> {
  const requester = await newRequester(target, "drafter");

  const { hypothesis: _dropped, ...incomplete } = micRequest("Draft without a hypothesis yet");
  const draft = await requester.call("POST", "/experiments?draft=true", incomplete);
  expect(draft.status, draft.text).toBe(201);
  expect(draft.body.status).toBe("draft");
  const draftId = draft.body.experiment_id as string;
  const submitted = await requester.call("POST", `/experiments/${draftId}/submit`);
  expect(submitted.status, submitted.text).toBe(422);
  expect(submitted.body.error.code).toBe("validation_failed");
  expect(paths(submitted.body.error.details.errors).some((p) => p.startsWith("hypothesis"))).toBe(true);
  expect((await requester.call("GET", `/experiments/${draftId}`)).body.status).toBe("draft");

  const complete = await requester.call("POST", "/experiments?draft=true", micRequest("Draft ready to go"));
  expect(complete.status, complete.text).toBe(201);
  expect(complete.body.status).toBe("draft");
  const id = complete.body.experiment_id as string;
  const listed = await requester.call("GET", "/experiments?status=draft");
  expect(listed.body.pagination.total).toBe(2);
  const ok = await requester.call("POST", `/experiments/${id}/submit`);
  expect(ok.status, ok.text).toBe(200);
  expect(ok.body).toMatchObject({ experiment_id: id, status: "open" });
  const twice = await requester.call("POST", `/experiments/${id}/submit`);
  expect(twice.status, twice.text).toBe(409);
  expect(twice.body.error.code).toBe("invalid_state");

  // A draft holds nothing: cancelling it refunds nothing.
  const cancelled = await requester.call("DELETE", `/experiments/${draftId}`, { reason: "not needed" });
  expect(cancelled.status, cancelled.text).toBe(200);
  expect(cancelled.body).toMatchObject({ status: "cancelled", refund_amount_usd: 0 });
}

/** pending_review -> staff approve (open) and staff reject (cancelled, full refund). */
export async function staffReviewScenario(target: ExperimentsTarget): Promise<void> {
  const requester = await newRequester(target, "reviewed");
  const staff = await staffClient(target);

  const first = await requester.call("POST", "/experiments", customRequest());
  expect(first.status, first.text).toBe(201);
  expect(first.body.status).toBe("pending_review");
  const second = await requester.call("POST", "/experiments", customRequest());
  expect(second.body.status).toBe("pending_review");
  const details = await requester.call("GET", `/experiments/${first.body.experiment_id}`);
  expect(details.body.review_reasons).toContain("custom_protocol");

  expect((await requester.call("GET", "/staff/review-queue")).status).toBe(403);
  const forbidden = await requester.call(
    "POST",
    `/staff/experiments/${first.body.experiment_id}/approve`,
    {},
  );
  expect(forbidden.status, forbidden.text).toBe(403);

  const queue = await staff.call("GET", "/staff/review-queue?limit=100");
  expect(queue.status, queue.text).toBe(200);
  const queued = queue.body.experiments.map((e: { experiment_id: string }) => e.experiment_id);
  expect(queued).toEqual(expect.arrayContaining([first.body.experiment_id, second.body.experiment_id]));
  expect(queue.body.experiments.every((e: { status: string }) => e.status === "pending_review")).toBe(true);

  const approved = await staff.call("POST", `/staff/experiments/${first.body.experiment_id}/approve`, {
    note: "protocol is complete",
  });
  expect(approved.status, approved.text).toBe(200);
  expect(approved.body.status).toBe("open");
  expect((await requester.call("GET", `/experiments/${first.body.experiment_id}`)).body.status).toBe("open");
  const twice = await staff.call("POST", `/staff/experiments/${first.body.experiment_id}/approve`, {});
  expect(twice.status, twice.text).toBe(409);
  expect(twice.body.error).toMatchObject({ code: "invalid_state", details: { status: "open" } });

  expect(
    (await staff.call("POST", `/staff/experiments/${second.body.experiment_id}/reject`, {})).status,
  ).toBe(422);
  const rejected = await staff.call("POST", `/staff/experiments/${second.body.experiment_id}/reject`, {
    reason: "the organism needs a BSL-2 lab we cannot source",
  });
  expect(rejected.status, rejected.text).toBe(200);
  expect(rejected.body.status).toBe("cancelled");
  expect(rejected.body.cancellation).toMatchObject({
    reason: "the organism needs a BSL-2 lab we cannot source",
    refund_status: "full",
  });
  const seen = await requester.call("GET", `/experiments/${second.body.experiment_id}`);
  expect(seen.body.status).toBe("cancelled");
  expect(seen.body.cancellation.refund_amount_usd).toBe(seen.body.hold_amount_usd);
}

/** protocol_design_requested -> staff proposal -> changes requested -> new proposal -> accept -> open. */
export async function protocolDesignScenario(target: ExperimentsTarget): Promise<void> {
  const requester = await newRequester(target, "designer");
  const staff = await staffClient(target);

  const created = await requester.call("POST", "/experiments", designRequest());
  expect(created.status, created.text).toBe(201);
  expect(created.body.status).toBe("pending_review");
  const id = created.body.experiment_id as string;
  expect((await requester.call("GET", `/experiments/${id}`)).body.review_reasons).toContain(
    "protocol_design_requested",
  );

  const early = await requester.call("POST", `/experiments/${id}/protocol-proposal/accept`);
  expect(early.status, early.text).toBe(409);
  const approve = await staff.call("POST", `/staff/experiments/${id}/approve`, {});
  expect(approve.status, approve.text).toBe(409);

  const proposed = await staff.call("POST", `/staff/experiments/${id}/protocol-proposal`, {
    protocol: proposedProtocol("1.0"),
    note: "broth microdilution in low-binding plates",
  });
  expect(proposed.status, proposed.text).toBe(200);
  expect(proposed.body.status).toBe("pending_review");
  expect(proposed.body.protocol_proposal).toMatchObject({ revision: 1, status: "proposed" });

  const changes = await requester.call("POST", `/experiments/${id}/protocol-proposal/request-changes`, {
    comments: "please add a colistin control",
  });
  expect(changes.status, changes.text).toBe(200);
  expect(changes.body.protocol_proposal).toMatchObject({ revision: 1, status: "changes_requested" });

  const revised = await staff.call("POST", `/staff/experiments/${id}/protocol-proposal`, {
    protocol: proposedProtocol("1.1"),
    note: "colistin control added",
  });
  expect(revised.body.protocol_proposal).toMatchObject({ revision: 2, status: "proposed" });

  const accepted = await requester.call("POST", `/experiments/${id}/protocol-proposal/accept`);
  expect(accepted.status, accepted.text).toBe(200);
  expect(accepted.body.status).toBe("open");
  expect(accepted.body.protocol_proposal).toMatchObject({ revision: 2, status: "accepted" });
  // The accepted proposal is the request's protocol now (normalised: custom_protocol at the top level).
  expect(accepted.body.request.protocol).toMatchObject({ type: "custom" });
  expect(accepted.body.request.custom_protocol).toMatchObject({ protocol_version: "1.1" });
}

/** Same key and body: the same bytes and Idempotent-Replayed; another body 422; 10 at once: one experiment. */
export async function idempotencyScenario(target: ExperimentsTarget): Promise<void> {
  const requester = await newRequester(target, "idempotent");
  const key = `order-${Date.now()}`;
  const body = micRequest("Idempotent MIC request");

  const first = await requester.fetch("POST", "/experiments", body, { "idempotency-key": key });
  const firstText = await first.text();
  expect(first.status).toBe(201);
  expect(first.headers.get("idempotent-replayed")).toBeNull();
  const replay = await requester.fetch("POST", "/experiments", body, { "idempotency-key": key });
  expect(replay.status).toBe(201);
  expect(replay.headers.get("idempotent-replayed")).toBe("true");
  expect(await replay.text()).toBe(firstText);
  // Key order does not make it another request.
  const reordered = Object.fromEntries(Object.entries(body).reverse());
  const shuffled = await requester.fetch("POST", "/experiments", reordered, { "idempotency-key": key });
  expect(shuffled.status).toBe(201);
  expect(await shuffled.text()).toBe(firstText);

  const other = await requester.call("POST", "/experiments", micRequest("Another body, same key"), {
    "idempotency-key": key,
  });
  expect(other.status, other.text).toBe(422);
  expect(other.body.error.code).toBe("idempotency_key_reused");
  const badKey = await requester.call("POST", "/experiments", body, { "idempotency-key": "x".repeat(256) });
  expect(badKey.status, badKey.text).toBe(422);

  // Ten requests with one new key at the same time: exactly one experiment.
  const concurrentKey = `burst-${Date.now()}`;
  const burst = micRequest("Concurrent MIC request");
  const answers = await Promise.all(
    Array.from({ length: 10 }, async () => {
      const response = await requester.fetch("POST", "/experiments", burst, {
        "idempotency-key": concurrentKey,
      });
      return { status: response.status, text: await response.text() };
    }),
  );
  const statuses = answers.map((a) => a.status);
  expect(
    statuses.every((s) => s === 201 || s === 409),
    JSON.stringify(statuses),
  ).toBe(true);
  const created = answers.filter((a) => a.status === 201);
  expect(created.length).toBeGreaterThanOrEqual(1);
  expect(new Set(created.map((a) => a.text)).size).toBe(1);
  for (const conflict of answers.filter((a) => a.status === 409)) {
    expect(JSON.parse(conflict.text).error.code).toEqual(expect.any(String));
  }
  const after = await requester.call("POST", "/experiments", burst, { "idempotency-key": concurrentKey });
  expect(after.status, after.text).toBe(201);
  expect(after.text).toBe(created[0]!.text);

  const mine = await requester.call("GET", "/experiments?limit=100");
  const titles = mine.body.experiments.map((e: { title: string }) => e.title);
  expect(titles.filter((t: string) => t === "Concurrent MIC request")).toHaveLength(1);
  expect(titles.filter((t: string) => t === "Idempotent MIC request")).toHaveLength(1);
  expect(mine.body.pagination.total).toBe(2);

  // The replay is the first answer, not the current state: still "open" after a cancel.
  const id = JSON.parse(firstText).experiment_id as string;
  expect((await requester.call("DELETE", `/experiments/${id}`, { reason: "replay check" })).status).toBe(200);
  const later = await requester.fetch("POST", "/experiments", body, { "idempotency-key": key });
  expect(later.status).toBe(201);
  expect(await later.text()).toBe(firstText);
}

/** Another account's experiment is 404 for read, patch, delete, submit and accept; it is unchanged. */
export async function bolaScenario(target: ExperimentsTarget): Promise<void> {
  const owner = await newRequester(target, "owner");
  const intruder = await newRequester(target, "intruder");
  const created = await owner.call("POST", "/experiments", micRequest("Owner's private MIC request"));
  expect(created.status, created.text).toBe(201);
  const id = created.body.experiment_id as string;
  const before = await owner.call("GET", `/experiments/${id}`);

  const attempts = [
    await intruder.call("GET", `/experiments/${id}`),
    await intruder.call("PATCH", `/experiments/${id}`, { turnaround_days: 5 }),
    await intruder.call("DELETE", `/experiments/${id}`, { reason: "mine now" }),
    await intruder.call("POST", `/experiments/${id}/submit`),
    await intruder.call("POST", `/experiments/${id}/protocol-proposal/accept`),
  ];
  const missing = await intruder.call("GET", "/experiments/exp_doesnotexist000000000000");
  for (const attempt of attempts) {
    expect(attempt.status, attempt.text).toBe(404);
    expect(attempt.body.error.code).toBe("not_found");
  }
  expect(missing.status, missing.text).toBe(404);
  expect((await intruder.call("GET", "/experiments")).body.pagination.total).toBe(0);

  const after = await owner.call("GET", `/experiments/${id}`);
  expect(after.body.status).toBe("open");
  expect(after.body.request).toEqual(before.body.request);
  expect(after.body.updated_at).toBe(before.body.updated_at);
}
