/**
 * The marketplace's side of the loop, played by the tests: OperatorEligibilityChanged and
 * PaymentUpdated events published on the in-process bus, as the marketplace service would,
 * and consumed by the experiments service's own consumer into its projections.
 */
import { randomBytes } from "node:crypto";
import type { DescMessage, MessageInitShape } from "@bufbuild/protobuf";
import { type EventSpec, events, streamFor } from "@petri/contracts";
import {
  type ExperimentPaymentSchema,
  type OperatorEligibility,
  OperatorEligibilitySchema,
} from "@petri/contracts/marketplace";
import { create } from "@bufbuild/protobuf";
import { buildEnvelope } from "@petri/events";
import type { Principal } from "@petri/service-kit";
import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import { TEMPLATES } from "../../src/domain/templates/index.js";
import type { Experiments } from "./harness.js";

const CONSUMER = "experiments-marketplace";

/** Every equipment name of the template catalogue, so a default lab has whatever a job needs. */
const ALL_EQUIPMENT = [...new Set(TEMPLATES.flatMap((t) => t.equipment_required))].map((name) =>
  name.trim().replace(/\s+/g, " ").toLowerCase(),
);

/**
 * Waits (real time, bounded) until the service's marketplace consumer has finished with the
 * event: its inbox row is there, or (a handler consumed without inbox, D329) the consumer has
 * acknowledged everything published to it, this event included.
 */
export async function waitConsumed(exp: Experiments, eventId: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await exp.db
      .selectFrom("inbox")
      .select("event_id")
      .where("consumer", "=", CONSUMER)
      .where("event_id", "=", eventId)
      .executeTakeFirst();
    if (row) return;
    const lag = await exp.bus.consumerLag?.(streamFor("marketplace"), CONSUMER);
    if (lag && lag.pending === 0 && lag.unacknowledged === 0) return;
    if (Date.now() > deadline) throw new Error(`event ${eventId} was not consumed within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Publishes one OperatorEligibilityChanged and waits until it was consumed; returns its event id. */
export async function publishEligibility(
  exp: Experiments,
  eligibility: OperatorEligibility,
): Promise<string> {
  return publishConsumed(
    exp,
    events.marketplace.operatorEligibilityChanged,
    { eligibility, previousStatus: "" },
    { id: eligibility.operatorId, version: eligibility.version },
  );
}

/** Publishes one PaymentUpdated and waits until it was consumed; returns its event id. */
export async function publishPayment(
  exp: Experiments,
  payment: MessageInitShape<typeof ExperimentPaymentSchema> & { experimentId: string; version: bigint },
  kind = "hold",
): Promise<string> {
  return publishConsumed(
    exp,
    events.marketplace.paymentUpdated,
    { payment, kind },
    { id: payment.experimentId, version: payment.version },
  );
}

/** Publishes one event of `aggregate` as the marketplace would, now, and waits until it was consumed; returns its event id. */
async function publishConsumed<Desc extends DescMessage>(
  exp: Experiments,
  spec: EventSpec<Desc>,
  payload: MessageInitShape<Desc>,
  aggregate: { id: string; version: bigint },
): Promise<string> {
  const envelope = buildEnvelope(spec, payload, {
    aggregateId: aggregate.id,
    aggregateVersion: Number(aggregate.version),
    occurredAt: exp.clock.now(),
  });
  await exp.bus.publish(envelope);
  await waitConsumed(exp, envelope.id);
  return envelope.id;
}

export type EligibilityOverrides = Partial<
  Omit<MessageInitShape<typeof OperatorEligibilitySchema>, "$typeName">
>;

/** A lab's snapshot: active, every type, BSL-2, every approval, every catalogue instrument. */
export function eligibilityOf(overrides: EligibilityOverrides = {}): OperatorEligibility {
  const suffix = randomBytes(4).toString("hex");
  return create(OperatorEligibilitySchema, {
    operatorId: `op_lab${suffix}`,
    accountId: `usr_lab${suffix}`,
    labName: `Lab ${suffix}`,
    status: "active",
    experimentTypes: [...EXPERIMENT_TYPES],
    maxBsl: "BSL-2",
    humanSamplesApproved: true,
    animalSamplesApproved: true,
    hazardousChemicalsApproved: true,
    equipment: ALL_EQUIPMENT,
    equipmentVerified: true,
    maxConcurrentJobs: 5,
    currentCapacity: "high",
    timezone: "UTC",
    vacations: [],
    version: 1n,
    ...overrides,
  });
}

export interface VerifiedOperator {
  principal: Principal;
  eligibility: OperatorEligibility;
}

/** A verified operator known to the experiments service (its snapshot consumed into the projection). */
export async function verifiedOperator(
  exp: Experiments,
  overrides: EligibilityOverrides = {},
): Promise<VerifiedOperator> {
  const eligibility = eligibilityOf(overrides);
  await publishEligibility(exp, eligibility);
  return {
    eligibility,
    principal: {
      accountId: eligibility.accountId,
      role: "operator",
      tier: "standard",
      operatorId: eligibility.operatorId,
    },
  };
}
