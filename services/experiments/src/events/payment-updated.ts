/**
 * petri.marketplace.payment_updated -> the payment columns of the experiment (Experiment.payment).
 * Idempotent and order-tolerant: applied only when the ledger's version is newer than the
 * one stored; an experiment this service does not know is ignored.
 */
import type { PaymentUpdated } from "@petri/contracts/marketplace";
import type { Kysely } from "kysely";
import { applyPaymentIfNewer } from "../db/experiments.js";
import { PAYMENT_STATUSES, type ExperimentsDb, type PaymentStatus } from "../db/schema.js";

function isPaymentStatus(value: string): value is PaymentStatus {
  return (PAYMENT_STATUSES as readonly string[]).includes(value);
}

export async function applyPaymentUpdated(
  trx: Kysely<ExperimentsDb>,
  event: PaymentUpdated,
  occurredAt: Date,
): Promise<void> {
  const payment = event.payment;
  if (!payment || payment.experimentId === "") throw new Error("PaymentUpdated without an experiment id");
  // A status outside the contract's list is a publisher bug: fail loudly (dead letter).
  if (!isPaymentStatus(payment.status))
    throw new Error(`PaymentUpdated with unknown status "${payment.status}"`);
  await applyPaymentIfNewer(trx, payment.experimentId, {
    status: payment.status,
    heldCents: Number(payment.heldCents),
    releasedCents: Number(payment.releasedCents),
    refundedCents: Number(payment.refundedCents),
    stillHeldCents: Number(payment.stillHeldCents),
    version: Number(payment.version),
    updatedAt: occurredAt,
  });
}
