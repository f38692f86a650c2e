/**
 * A small world for the conformance suite, built through the public REST API only: an account
 * of every role (all on the pro tier, so the suite's requests stay within the rate limits),
 * and one object of every kind an operation can name by id, owned by `owner`: experiments in
 * the interesting states, a hypothesis, a completed engine run, a cloud-lab submission, a
 * webhook delivery, a dispute, a results file, an API key.
 */
import { FAILPOINT, type Failpoints } from "@petri/service-kit";
import { expect } from "vitest";
import {
  Client,
  type ExperimentsTarget,
  customRequest,
  designRequest,
  micRequest,
  staffClient,
} from "../experiments.scenarios.js";
import {
  eventually,
  newUnverifiedOperator,
  operatorProfile,
  runToPendingApproval,
  verificationRecord,
} from "../marketplace.scenarios.js";
import type { WebhookReceiver } from "./webhook-receiver.js";

export const WORLD_PASSWORD = "a long enough password";
const PASSWORD = WORLD_PASSWORD;
const JSON_HEADERS = { "content-type": "application/json" };

export type RoleName = "owner" | "other" | "operator" | "otherOperator" | "unverified" | "staff";

export interface World {
  clients: Record<RoleName, Client>;
  /** Credentials headers by role (for the probe, which sends its own requests). */
  credentials: Record<RoleName, Record<string, string>>;
  accountIds: Record<RoleName, string>;
  operatorIds: { operator: string; otherOperator: string; unverified: string };
  /** A pending dead letter of identity's operator-role consumer (see withDeadLetter). */
  deadLetterId: string;
  experiments: {
    /** open: posted, nobody claimed it. */
    open: string;
    draft: string;
    /** pending_review: CUSTOM requests waiting for staff (one per review operation). */
    review: string;
    rejectable: string;
    legacyApprovable: string;
    legacyRejectable: string;
    /** pending_review: a protocol-design request (proposals, changes, acceptance). */
    design: string;
    /** pending_approval: claimed by `operator`, results submitted (with files and a webhook). */
    pending: string;
    /** disputed by the owner. */
    disputed: string;
  };
  disputeId: string;
  hypothesisId: string;
  runId: string;
  submissionId: string;
  providerId: string;
  templateId: string;
  deliveryId: string;
  apiKeyId: string;
  file: { id: string; expires: string; signature: string };
}

async function register(target: ExperimentsTarget, label: string) {
  const email = `${label}+${Date.now()}-${Math.random().toString(36).slice(2)}@example.org`;
  const response = await fetch(`${target.baseUrls[0]}/auth/register`, {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ email, password: PASSWORD, name: label }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  const body = JSON.parse(text);
  return {
    email,
    accountId: body.account.id as string,
    client: new Client(target, { "x-api-key": body.api_key_secret }, body.account.id),
  };
}

/** A fresh access token: it carries the account's current tier (pro). */
async function tokenFor(target: ExperimentsTarget, email: string, password: string) {
  const response = await fetch(`${target.baseUrls[0]}/auth/token`, {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ email, password }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return { authorization: `Bearer ${JSON.parse(text).access_token}` };
}

function ok(response: { status: number; text: string }, ...statuses: number[]) {
  expect(statuses, response.text).toContain(response.status);
}

export async function buildWorld(
  target: ExperimentsTarget,
  receiver: WebhookReceiver,
): Promise<Omit<World, "deadLetterId">> {
  const bootstrapStaff = await staffClient(target);
  const labels = ["owner", "other", "operator", "otherOperator", "unverified"] as const;
  const registered = Object.fromEntries(
    await Promise.all(labels.map(async (role) => [role, await register(target, `conf-${role}`)] as const)),
  ) as Record<Exclude<RoleName, "staff">, Awaited<ReturnType<typeof register>>>;

  const operatorIds = {} as World["operatorIds"];
  for (const role of ["operator", "otherOperator", "unverified"] as const) {
    const submitted = await registered[role].client.call(
      "POST",
      "/operator/profile",
      operatorProfile(`conformance ${role} lab`),
    );
    ok(submitted, 200, 201);
    operatorIds[role] = submitted.body.operator_id;
  }
  for (const role of ["operator", "otherOperator"] as const) {
    const verified = await bootstrapStaff.call(
      "POST",
      `/admin/operators/${operatorIds[role]}/verify`,
      verificationRecord(),
    );
    ok(verified, 200);
  }

  // Everyone on the pro tier (1,000 requests a minute), then fresh tokens that say so.
  const staffMe = await bootstrapStaff.call("GET", "/auth/me");
  const staffId: string = staffMe.body.account.id;
  for (const accountId of [...labels.map((role) => registered[role].accountId), staffId]) {
    ok(await bootstrapStaff.call("PATCH", `/admin/accounts/${accountId}`, { tier: "pro" }), 200);
  }
  const credentials = {} as World["credentials"];
  for (const role of labels) credentials[role] = await tokenFor(target, registered[role].email, PASSWORD);
  credentials.staff = await tokenFor(target, target.staff.email, target.staff.password);
  const accountIds = {
    ...Object.fromEntries(labels.map((role) => [role, registered[role].accountId])),
    staff: staffId,
  } as Record<RoleName, string>;
  const clients = Object.fromEntries(
    (Object.keys(credentials) as RoleName[]).map((role) => [
      role,
      new Client(target, credentials[role], accountIds[role]),
    ]),
  ) as Record<RoleName, Client>;
  const { owner, operator } = clients;

  ok(await owner.call("POST", "/webhooks/secret"), 201);
  const post = async (body: unknown, query = "") => {
    const created = await owner.call("POST", `/experiments${query}`, body);
    ok(created, 201);
    return created.body.experiment_id as string;
  };
  const open = await post(micRequest("Conformance: open"));
  const draft = await post(micRequest("Conformance: draft"), "?draft=true");
  const review = await post(customRequest());
  const rejectable = await post(customRequest());
  const legacyApprovable = await post(customRequest());
  const legacyRejectable = await post(customRequest());
  const design = await post(designRequest());
  const pending = await post({
    ...micRequest("Conformance: pending approval"),
    communication_preferences: {
      webhook_url: `${receiver.url}/hooks/conformance`,
      notification_events: ["claimed", "started", "issue", "completed"],
      preferred_contact: "webhook",
    },
  });
  const disputed = await post(micRequest("Conformance: disputed"));
  await runToPendingApproval(owner, operator, pending);
  await runToPendingApproval(owner, operator, disputed);
  const dispute = await owner.call("POST", `/experiments/${disputed}/dispute`, {
    reason: "results_incorrect",
    description: "The positive control is missing from the plate reads of this conformance run.",
  });
  ok(dispute, 201);

  const hypothesis = await owner.call("POST", "/hypotheses", {
    title: "Ampicillin inhibits E. coli",
    statement: "Ampicillin inhibits growth of E. coli ATCC 25922 at 8 ug/mL or lower.",
  });
  ok(hypothesis, 201);

  const started = await owner.call("POST", "/cloud-labs/engine/start", {
    query: "Does ciprofloxacin inhibit E. coli ATCC 25922 at 1 ug/mL or less? Broth microdilution.",
  });
  ok(started, 202);
  const runId: string = started.body.run_id;

  const providers = await owner.call("GET", "/cloud-labs/providers");
  ok(providers, 200);
  const providerId: string = providers.body.providers.find((p: { supported_experiment_types: string[] }) =>
    p.supported_experiment_types.includes("MIC_MBC_ASSAY"),
  ).id;
  const sent = await owner.call("POST", `/cloud-labs/experiments/${open}/translate`, {
    provider_id: providerId,
  });
  ok(sent, 201);
  const submissionId: string = sent.body.submission.id;

  const templates = await owner.call("GET", "/templates");
  ok(templates, 200);
  const key = await owner.call("POST", "/auth/api-keys", { name: "conformance" });
  ok(key, 201);

  const results = await owner.call("GET", `/experiments/${pending}/results`);
  ok(results, 200);
  const url = new URL(results.body.raw_data_files[0].url, target.baseUrls[0]);

  // The asynchronous parts: the engine run and the sandbox lab finish, a delivery is logged.
  await eventually("the engine run to complete", async () => {
    const run = await owner.call("GET", `/cloud-labs/engine/runs/${runId}`);
    return run.body?.status === "COMPLETED" ? true : undefined;
  });
  await eventually("the sandbox submission to complete", async () => {
    const read = await owner.call("GET", `/cloud-labs/submissions/${submissionId}`);
    return read.body?.status === "completed" ? true : undefined;
  });
  const deliveryId = await eventually("a webhook delivery", async () => {
    const listed = await owner.call("GET", `/webhooks/deliveries?experiment_id=${pending}`);
    return listed.body?.deliveries?.[0]?.delivery_id as string | undefined;
  });

  return {
    clients,
    credentials,
    accountIds,
    operatorIds,
    experiments: {
      open,
      draft,
      review,
      rejectable,
      legacyApprovable,
      legacyRejectable,
      design,
      pending,
      disputed,
    },
    disputeId: dispute.body.dispute_id,
    hypothesisId: hypothesis.body.id,
    runId,
    submissionId,
    providerId,
    templateId: templates.body.templates[0].id,
    deliveryId,
    apiKeyId: key.body.api_key.id,
    file: {
      id: url.pathname.split("/").pop()!,
      expires: url.searchParams.get("expires")!,
      signature: url.searchParams.get("signature")!,
    },
  };
}

const DEAD_LETTER_CONSUMER = "identity-operator-roles";

/**
 * The world plus a dead letter for the staff dead-letter routes: while `failpoints` fails every
 * run of identity's operator-role consumer, one more lab is verified, so its eligibility events
 * are dead-lettered after five deliveries. Built after the world, whose labs must get their
 * roles; disarmed afterwards, so a replay applies. Staff polls once a second (100 a minute).
 */
export async function withDeadLetter(
  target: ExperimentsTarget,
  world: Omit<World, "deadLetterId">,
  failpoints: Failpoints,
): Promise<World> {
  const staff = await staffClient(target);
  const fails = `${FAILPOINT.consumerHandlerFails}:${DEAD_LETTER_CONSUMER}`;
  failpoints.arm(fails, "throw");
  try {
    const { operatorId } = await newUnverifiedOperator(target, "conf-dead-letter-lab");
    const verified = await staff.call("POST", `/admin/operators/${operatorId}/verify`, verificationRecord());
    expect(verified.status, verified.text).toBe(200);
    const deadLetterId = await eventually(
      "a dead letter",
      async () => {
        const list = await staff.call("GET", `/admin/dead-letters?consumer=${DEAD_LETTER_CONSUMER}`);
        return list.body?.dead_letters?.[0]?.dead_letter_id as string | undefined;
      },
      { intervalMs: 1_000, timeoutMs: 90_000 },
    );
    return { ...world, deadLetterId };
  } finally {
    failpoints.disarm(fails);
  }
}
