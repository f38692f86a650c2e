/**
 * The payment-provider port: how ledger postings reach real money. The ledger is the source of
 * truth; a provider call follows each recorded posting, keyed by `<experiment_id>:<kind>` (plus
 * `:<key>` for a keyed posting such as a hold adjustment) so a retried call is idempotent at the
 * provider too (Stripe-style idempotency keys).
 *
 * The sandbox adapter below is the default everywhere (standalone, cluster, tests). A
 * production adapter (e.g. card authorisation + connected-account transfers) is future work:
 * it implements the same four methods and must honour the idempotency key.
 */
import { REQUESTER_FUNDS, REQUESTER_REFUND, isOperatorPayableAccount } from "./accounts.js";
import { type Posting, postingKey } from "./postings.js";

export interface AuthorizeHoldRequest {
  idempotencyKey: string;
  experimentId: string;
  amountCents: number;
}

/** Lower an authorised hold by `amountCents` (the hold was re-estimated down). */
export interface ReduceHoldRequest {
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
  /** Reserve the requester's money for an experiment (hold, or a raised hold's increment). */
  authorizeHold(request: AuthorizeHoldRequest): Promise<ProviderReceipt>;
  /** Let go of part of an authorisation (a hold re-estimated down). */
  reduceHold(request: ReduceHoldRequest): Promise<ProviderReceipt>;
  /** Pay the operator out of held money (release, compensation, the operator's dispute share). */
  capture(request: CaptureRequest): Promise<ProviderReceipt>;
  /** Return money to the requester (refund, the requester's dispute share or claw-back). */
  refund(request: RefundRequest): Promise<ProviderReceipt>;
}

export type ProviderCall =
  | { method: "authorizeHold"; request: AuthorizeHoldRequest }
  | { method: "reduceHold"; request: ReduceHoldRequest }
  | { method: "capture"; request: CaptureRequest }
  | { method: "refund"; request: RefundRequest };

/** The provider calls that carry out a recorded posting (pure). */
export function providerCallsFor(posting: Posting): ProviderCall[] {
  const key = postingKey(posting);
  const base =
    key === "" ? `${posting.experimentId}:${posting.kind}` : `${posting.experimentId}:${posting.kind}:${key}`;
  const { experimentId } = posting;
  if (posting.kind === "hold" || posting.kind === "hold_adjustment") {
    // requester_funds gives (a negative entry) when the hold grows, takes back when it shrinks.
    const funds = posting.entries.find((e) => e.account === REQUESTER_FUNDS)?.amountCents ?? 0;
    if (funds > 0)
      return [{ method: "reduceHold", request: { idempotencyKey: base, experimentId, amountCents: funds } }];
    return [
      { method: "authorizeHold", request: { idempotencyKey: base, experimentId, amountCents: -funds } },
    ];
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

export interface ExecutedProviderCall {
  call: ProviderCall;
  receipt: ProviderReceipt;
}

async function perform(provider: PaymentProvider, call: ProviderCall): Promise<ProviderReceipt> {
  switch (call.method) {
    case "authorizeHold":
      return provider.authorizeHold(call.request);
    case "reduceHold":
      return provider.reduceHold(call.request);
    case "capture":
      return provider.capture(call.request);
    case "refund":
      return provider.refund(call.request);
  }
}

/** Runs the calls of a posting against a provider, in order, with each call's receipt. */
export async function executeProviderCalls(
  provider: PaymentProvider,
  posting: Posting,
): Promise<ExecutedProviderCall[]> {
  const executed: ExecutedProviderCall[] = [];
  for (const call of providerCallsFor(posting))
    executed.push({ call, receipt: await perform(provider, call) });
  return executed;
}

/** Runs the calls of a posting against a provider, in order. */
export async function executePosting(
  provider: PaymentProvider,
  posting: Posting,
): Promise<ProviderReceipt[]> {
  return (await executeProviderCalls(provider, posting)).map((executed) => executed.receipt);
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

  reduceHold(request: ReduceHoldRequest): Promise<ProviderReceipt> {
    return this.record({ method: "reduceHold", request }, "red");
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
