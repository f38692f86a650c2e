import { randomUUID } from "node:crypto";
import { micRequest } from "@petri/testkit";
import { type Population, call } from "./setup.js";
import type { WebhookReceiver } from "./webhook-receiver.js";

export interface WebhookRoundResult {
  claims: number;
  /** Milliseconds from the claim's HTTP response to the receiver's first "claimed" delivery. */
  fromResponseMs: number[];
  /** The same from the moment the claim request was sent. */
  fromRequestMs: number[];
  /** Claims whose "claimed" delivery had not arrived `graceMs` after the last claim. */
  missed: number;
}

/** A claim as an operator confirms it; the start date a week ahead, whenever the bench runs. */
function claimBody() {
  return {
    equipment_confirmation: true,
    authorization_confirmation: true,
    estimated_start_date: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
    notes: "Bench claim.",
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (bounded) for the receiver's first "claimed" delivery of the experiment. */
async function arrivalOf(receiver: WebhookReceiver, experimentId: string, graceMs: number): Promise<void> {
  const deadline = performance.now() + graceMs;
  while (performance.now() < deadline && receiver.arrival(experimentId, "claimed") === undefined)
    await sleep(2);
}

/**
 * `claims` open experiments posted by the first requester, each asking for the "claimed" webhook
 * to `receiver`; once the target has worked off what posting them set going (`settle`), they
 * are claimed one after another by the operator, each claim timed to the receiver's first
 * delivery of its event, and the next claim sent only once that delivery arrived (or
 * `graceMs` passed): the row measures one claim's way to its webhook, not a queue of them.
 */
export async function runWebhookRound(
  baseUrl: string,
  population: Population,
  receiver: WebhookReceiver,
  claims: number,
  settle: () => Promise<unknown>,
  graceMs = 10_000,
): Promise<WebhookRoundResult> {
  const requester = population.requesters[0]!;
  const ids: string[] = [];
  for (let i = 0; i < claims; i += 1) {
    const created = await call(baseUrl, "POST", "/experiments", 201, {
      token: requester.token,
      headers: { "idempotency-key": randomUUID() },
      body: {
        ...micRequest("MIC of ampicillin (bench, webhook)"),
        communication_preferences: {
          webhook_url: `${receiver.url}/hooks/bench`,
          notification_events: ["claimed"],
          preferred_contact: "webhook",
        },
      },
    });
    ids.push(created.experiment_id as string);
  }
  await settle();
  const sent = new Map<string, { requested: number; answered: number }>();
  for (const id of ids) {
    // The experiments service learns of a verified operator through an event: until then a
    // claim is 403 "not a verified operator", retried a bounded number of times.
    for (let attempt = 0; ; attempt += 1) {
      const requested = performance.now();
      const response = await fetch(`${baseUrl}/operator/jobs/${id}/claim`, {
        method: "POST",
        headers: { authorization: `Bearer ${population.operatorToken}`, "content-type": "application/json" },
        body: JSON.stringify(claimBody()),
      });
      const answered = performance.now();
      const text = await response.text();
      if (response.status === 200) {
        sent.set(id, { requested, answered });
        await arrivalOf(receiver, id, graceMs);
        break;
      }
      if (response.status !== 403 || !/not a verified operator/i.test(text) || attempt >= 100)
        throw new Error(`claim of ${id}: ${response.status} ${text}`);
      await sleep(100);
    }
  }
  const result: WebhookRoundResult = { claims, fromResponseMs: [], fromRequestMs: [], missed: 0 };
  for (const [id, { requested, answered }] of sent) {
    const arrived = receiver.arrival(id, "claimed");
    if (arrived === undefined) {
      result.missed += 1;
      continue;
    }
    result.fromResponseMs.push(arrived - answered);
    result.fromRequestMs.push(arrived - requested);
  }
  return result;
}
