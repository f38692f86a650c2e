/**
 * The payment-provider port: how ledger postings reach real money. The ledger is the source of
 * truth; a provider call follows each recorded posting, keyed by `<experiment_id>:<kind>` so a
 * retried call is idempotent at the provider too (Stripe-style idempotency keys).
 *
 * The sandbox adapter below is the default everywhere (standalone, cluster, tests). A
 * production adapter (e.g. card authorisation + connected-account transfers) is future work:
 * it implements the same three methods and must honour the idempotency key.
 */
import { REQUESTER_REFUND, isOperatorPayableAccount } from "./accounts.js";
import type { Posting } from "./postings.js";

export interface AuthorizeHoldRequest {
  idempotencyKey: string;
  experimentId: string;
  amountCents: number;
}

export interface CaptureRequest {
  idempotencyKey: string;
  experimentId: string;
  operatorId: string;
  amountCents: number;
}

export interface RefundRequest {
  idempotencyKey: string;
  experimentId: string;
  amountCents: number;
}

export interface ProviderReceipt {
  /** The provider's id for the operation (same id for a replayed idempotency key). */
  providerId: string;
}

export interface PaymentProvider {
  readonly name: string;
  /** Reserve the requester's money for an experiment (hold). */
  authorizeHold(request: AuthorizeHoldRequest): Promise<ProviderReceipt>;
  /** Pay the operator out of held money (release, compensation, the operator's dispute share). */
  capture(request: CaptureRequest): Promise<ProviderReceipt>;
  /** Return money to the requester (refund, the requester's dispute share or claw-back). */
  refund(request: RefundRequest): Promise<ProviderReceipt>;
}

export type ProviderCall =
  | { method: "authorizeHold"; request: AuthorizeHoldRequest }
  | { method: "capture"; request: CaptureRequest }
  | { method: "refund"; request: RefundRequest };

/** The provider calls that carry out a recorded posting (pure). */
export function providerCallsFor(posting: Posting): ProviderCall[] {
  const base = `${posting.experimentId}:${posting.kind}`;
  const { experimentId } = posting;
  if (posting.kind === "hold") {
    const amountCents = posting.entries.reduce((sum, e) => sum + Math.max(e.amountCents, 0), 0);
    return [{ method: "authorizeHold", request: { idempotencyKey: base, experimentId, amountCents } }];
  }
  const calls: ProviderCall[] = [];
  for (const entry of posting.entries) {
    if (entry.amountCents <= 0) continue;
    if (entry.account === REQUESTER_REFUND) {
      calls.push({
        method: "refund",
        request: { idempotencyKey: `${base}:refund`, experimentId, amountCents: entry.amountCents },
      });
    } else if (isOperatorPayableAccount(entry.account)) {
      const operatorId = entry.account.slice("operator_payable:".length);
      calls.push({
        method: "capture",
        request: {
          idempotencyKey: `${base}:capture`,
          experimentId,
          operatorId,
          amountCents: entry.amountCents,
        },
      });
    }
  }
  return calls;
}

/** Runs the calls of a posting against a provider, in order. */
export async function executePosting(
  provider: PaymentProvider,
  posting: Posting,
): Promise<ProviderReceipt[]> {
  const receipts: ProviderReceipt[] = [];
  for (const call of providerCallsFor(posting)) {
    if (call.method === "authorizeHold") receipts.push(await provider.authorizeHold(call.request));
    else if (call.method === "capture") receipts.push(await provider.capture(call.request));
    else receipts.push(await provider.refund(call.request));
  }
  return receipts;
}

export interface SandboxCall {
  call: ProviderCall;
  receipt: ProviderReceipt;
  /** True when the idempotency key had been seen (the first receipt was returned). */
  replayed: boolean;
}

/**
 * In-memory sandbox: records every call, never moves money. Ids are deterministic
 * (`sbx_<method>_<n>` in call order), and a repeated idempotency key returns the first
 * receipt, as a real provider would.
 */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly name = "sandbox";
  readonly calls: SandboxCall[] = [];
  private readonly byKey = new Map<string, ProviderReceipt>();
  private counter = 0;

  authorizeHold(request: AuthorizeHoldRequest): Promise<ProviderReceipt> {
    return this.record({ method: "authorizeHold", request }, "hold");
  }

  capture(request: CaptureRequest): Promise<ProviderReceipt> {
    return this.record({ method: "capture", request }, "cap");
  }

  refund(request: RefundRequest): Promise<ProviderReceipt> {
    return this.record({ method: "refund", request }, "ref");
  }

  /** Successful (non-replayed) calls of one method, for assertions. */
  effective(method: ProviderCall["method"]): ProviderCall[] {
    return this.calls.filter((c) => !c.replayed && c.call.method === method).map((c) => c.call);
  }

  private record(call: ProviderCall, prefix: string): Promise<ProviderReceipt> {
    const key = `${call.method}:${call.request.idempotencyKey}`;
    const seen = this.byKey.get(key);
    if (seen) {
      this.calls.push({ call, receipt: seen, replayed: true });
      return Promise.resolve(seen);
    }
    this.counter += 1;
    const receipt = { providerId: `sbx_${prefix}_${String(this.counter).padStart(6, "0")}` };
    this.byKey.set(key, receipt);
    this.calls.push({ call, receipt, replayed: false });
    return Promise.resolve(receipt);
  }
}
