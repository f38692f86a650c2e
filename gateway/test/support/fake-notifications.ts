/**
 * An in-memory NotificationsService for gateway tests: signing secrets shown once and
 * rotated with an overlap, the pause, a seeded delivery log (with attempts), replay and
 * resume, the webhook test with its per-account limit, and the sent-mail log, raising the
 * same domain errors as the real service. Calls cross a Connect router transport with the
 * real internal-principal interceptors, so each RPC sees (and the fake records) the
 * principal and the exact request the gateway sent.
 */
import { clone, create } from "@bufbuild/protobuf";
import { type Timestamp, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type HandlerContext, createRouterTransport } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus } from "@petri/contracts/health";
import {
  NotificationsService,
  type SentMail,
  SentMailSchema,
  type WebhookAttempt,
  WebhookAttemptSchema,
  type WebhookDelivery,
  WebhookDeliverySchema,
  type WebhookSecretInfo,
  WebhookSecretInfoSchema,
  type WebhookSettings,
  WebhookSettingsSchema,
} from "@petri/contracts/notifications";
import {
  type Clock,
  ConflictError,
  type DomainError,
  ForbiddenError,
  InvalidStateError,
  type InternalTokenVerifier,
  NotFoundError,
  type Principal,
  RateLimitedError,
  ValidationError,
  type clientInterceptors,
  createLogger,
  domainErrorToConnectError,
  kPrincipal,
  serverInterceptors,
} from "@petri/service-kit";
import { WEBHOOK_EVENTS } from "@petri/contracts/vocabulary";

const fail = (error: DomainError) => domainErrorToConnectError(error);

export const TEST_CALLS_PER_MINUTE = 10;
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
const STATUSES = ["pending", "succeeded", "failed", "paused"];

/** The service's refusal of a URL: 422 invalid_webhook_url with one field error saying why. */
class InvalidWebhookUrl extends ValidationError {
  constructor(reason: string, field = "url") {
    super("the webhook URL is not allowed", [{ field, code: reason, message: `not allowed: ${reason}` }]);
  }
  override get code(): string {
    return "invalid_webhook_url";
  }
}

/** The URL rules, cut down to what the route tests exercise: https and a public host. */
function refusal(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "invalid_url";
  }
  if (parsed.protocol !== "https:") return "https_required";
  if (/^(localhost|127\.|10\.|169\.254\.|192\.168\.)/.test(parsed.hostname)) return "address_not_allowed";
  return undefined;
}

interface Secret {
  id: string;
  secret: string;
  createdAt: Date;
  revealed: boolean;
  previousValidUntil?: Date;
}

interface Account {
  secret?: Secret;
  pausedAt?: Date;
  pausedBy?: string;
}

/** What a receiver answered a test (by URL); the default is 200 in 42 ms. */
export interface ScriptedTest {
  success: boolean;
  responseCode: number;
  responseTimeMs: number;
  error: string;
}

export class FakeNotifications {
  /** Deliveries, oldest first (lists answer newest first). */
  readonly deliveries: WebhookDelivery[] = [];
  readonly mails: SentMail[] = [];
  readonly accounts = new Map<string, Account>();
  /** Deliveries with an attempt in flight (replay is 409 webhook_delivery_in_flight). */
  readonly inFlight = new Set<string>();
  /** Receivers' answers to POST /webhooks/test, by URL. */
  readonly testAnswers = new Map<string, ScriptedTest>();
  /** Every RPC with its request message and the principal it arrived with. */
  readonly calls: Array<{ method: string; request: unknown; principal: Principal | undefined }> = [];
  /** Make an RPC fail with this error (after recording the call). */
  readonly failures = new Map<string, () => Error>();
  private readonly testWindows = new Map<string, number>();
  private sequence = 0;

  constructor(readonly clock: Clock) {}

  count(method: string): number {
    return this.calls.filter((call) => call.method === method).length;
  }

  last(method: string): any {
    return [...this.calls].reverse().find((call) => call.method === method)?.request;
  }

  private now(): Timestamp {
    return timestampFromDate(this.clock.now());
  }

  private nextId(prefix: string): string {
    return `${prefix}_${String(++this.sequence).padStart(26, "0")}`;
  }

  private account(accountId: string): Account {
    let account = this.accounts.get(accountId);
    if (!account) this.accounts.set(accountId, (account = {}));
    return account;
  }

  /** Stores a delivery of `accountId` (pending, due now, no attempt yet unless `attempts` say so). */
  addDelivery(
    accountId: string,
    experimentId: string,
    fields: Partial<Pick<WebhookDelivery, "event" | "status" | "url" | "lastError">> & {
      attempts?: Array<
        Partial<Pick<WebhookAttempt, "trigger" | "responseCode" | "latencyMs" | "outcome" | "error">>
      >;
    } = {},
  ): WebhookDelivery {
    const { attempts = [], ...rest } = fields;
    const delivery = create(WebhookDeliverySchema, {
      id: this.nextId("msg"),
      accountId,
      experimentId,
      event: "claimed",
      url: "https://receiver.example.org/hooks",
      status: "pending",
      experimentVersion: 3n,
      createdAt: this.now(),
      ...rest,
      attempts: attempts.map((attempt, index) =>
        create(WebhookAttemptSchema, {
          number: index + 1,
          trigger: "event",
          attemptedAt: this.now(),
          outcome: "failed",
          ...attempt,
        }),
      ),
    });
    const last = delivery.attempts.at(-1);
    delivery.attemptCount = delivery.attempts.length;
    if (last) {
      delivery.lastAttemptAt = last.attemptedAt;
      delivery.lastResponseCode = last.responseCode;
      delivery.lastLatencyMs = last.latencyMs;
      delivery.lastError = last.error;
      if (last.outcome === "succeeded") delivery.deliveredAt = last.attemptedAt;
    }
    if (delivery.status === "pending") delivery.nextAttemptAt = this.now();
    this.deliveries.push(delivery);
    return delivery;
  }

  /** Pauses `accountId` as a fifth failure of `delivery` would, holding its pending deliveries. */
  pause(accountId: string, delivery: WebhookDelivery): void {
    const account = this.account(accountId);
    account.pausedAt = this.clock.now();
    account.pausedBy = delivery.id;
    for (const held of this.deliveries) {
      if (held.accountId === accountId && (held.status === "pending" || held.id === delivery.id)) {
        held.status = "paused";
        held.nextAttemptAt = undefined;
      }
    }
  }

  addMail(accountId: string, subject: string): SentMail {
    const mail = create(SentMailSchema, {
      id: this.nextId("mail"),
      accountId,
      to: `${accountId}@example.org`,
      subject,
      text: `${subject}\n\nResume them with POST /webhooks/resume.`,
      kind: "webhooks_paused",
      transport: "table",
      sentAt: this.now(),
    });
    this.mails.push(mail);
    return mail;
  }

  private record(method: string, request: unknown, context: HandlerContext): Principal {
    const principal = context.values.get(kPrincipal);
    this.calls.push({ method, request, principal });
    const failure = this.failures.get(method);
    if (failure) throw failure();
    if (!principal || principal.role === "system") throw fail(new ForbiddenError("acts for an account"));
    return principal;
  }

  private secretInfo(secret: Secret): WebhookSecretInfo {
    return create(WebhookSecretInfoSchema, {
      id: secret.id,
      createdAt: timestampFromDate(secret.createdAt),
      revealed: secret.revealed,
      previousValidUntil: secret.previousValidUntil
        ? timestampFromDate(secret.previousValidUntil)
        : undefined,
    });
  }

  private settings(accountId: string): WebhookSettings {
    const account = this.account(accountId);
    return create(WebhookSettingsSchema, {
      secret: account.secret ? this.secretInfo(account.secret) : undefined,
      paused: account.pausedAt !== undefined,
      pausedAt: account.pausedAt ? timestampFromDate(account.pausedAt) : undefined,
      pausedByDeliveryId: account.pausedBy ?? "",
      pausedDeliveries: BigInt(
        this.deliveries.filter((d) => d.accountId === accountId && d.status === "paused").length,
      ),
    });
  }

  private freshSecret(): Secret {
    const id = this.nextId("whs");
    return {
      id,
      secret: `whsec_${Buffer.from(id.padEnd(32, "x")).toString("base64")}`,
      createdAt: this.clock.now(),
      revealed: true,
    };
  }

  private visible(principal: Principal, deliveryId: string): WebhookDelivery {
    const delivery = this.deliveries.find((d) => d.id === deliveryId);
    if (!delivery || (principal.role !== "staff" && delivery.accountId !== principal.accountId))
      throw fail(new NotFoundError("webhook delivery", deliveryId));
    return delivery;
  }

  private page<T>(items: T[], limit: number, cursor: string) {
    if (limit < 0 || limit > 100)
      throw fail(
        new ValidationError("bad page", [{ field: "limit", code: "invalid_value", message: "1-100" }]),
      );
    const start = cursor ? Number(cursor.replace("c", "")) : 0;
    if (!Number.isInteger(start))
      throw fail(
        new ValidationError("bad cursor", [{ field: "cursor", code: "invalid_value", message: "not ours" }]),
      );
    const size = limit || 20;
    const hasMore = start + size < items.length;
    return {
      items: items.slice(start, start + size),
      total: BigInt(items.length),
      nextCursor: hasMore ? `c${start + size}` : "",
      hasMore,
    };
  }

  transport(verifier: InternalTokenVerifier, clientSide: ReturnType<typeof clientInterceptors>) {
    return createRouterTransport(
      (router) => {
        router.service(Health, {
          check: async () => ({ status: HealthCheckResponse_ServingStatus.SERVING }),
        });
        router.service(NotificationsService, {
          createWebhookSecret: async (request, context) => {
            const principal = this.record("CreateWebhookSecret", request, context);
            const account = this.account(principal.accountId);
            if (account.secret?.revealed)
              throw fail(
                new ConflictError("already shown; rotate it", "webhook_secret_already_revealed", {
                  secret_id: account.secret.id,
                }),
              );
            account.secret ??= this.freshSecret();
            account.secret.revealed = true;
            return { secret: account.secret.secret, info: this.secretInfo(account.secret) };
          },
          rotateWebhookSecret: async (request, context) => {
            const principal = this.record("RotateWebhookSecret", request, context);
            const account = this.account(principal.accountId);
            const rotated = this.freshSecret();
            if (account.secret)
              rotated.previousValidUntil = new Date(this.clock.now().getTime() + ROTATION_OVERLAP_MS);
            account.secret = rotated;
            return { secret: rotated.secret, info: this.secretInfo(rotated) };
          },
          getWebhookSettings: async (request, context) => {
            const principal = this.record("GetWebhookSettings", request, context);
            return { settings: this.settings(principal.accountId) };
          },
          listWebhookDeliveries: async (request, context) => {
            const principal = this.record("ListWebhookDeliveries", request, context);
            const accountId = request.accountId || principal.accountId;
            if (accountId !== principal.accountId && principal.role !== "staff")
              throw fail(new ForbiddenError("only staff can read another account's deliveries"));
            if (request.status && !STATUSES.includes(request.status))
              throw fail(
                new ValidationError("bad status", [
                  { field: "status", code: "invalid_value", message: "unknown status" },
                ]),
              );
            const matching = [...this.deliveries]
              .reverse()
              .filter(
                (d) =>
                  d.accountId === accountId &&
                  (!request.experimentId || d.experimentId === request.experimentId) &&
                  (!request.status || d.status === request.status),
              );
            const page = this.page(matching, request.limit, request.cursor);
            return {
              deliveries: page.items.map((d) => {
                const listed = clone(WebhookDeliverySchema, d);
                listed.attempts = [];
                return listed;
              }),
              total: page.total,
              nextCursor: page.nextCursor,
              hasMore: page.hasMore,
            };
          },
          getWebhookDelivery: async (request, context) => {
            const principal = this.record("GetWebhookDelivery", request, context);
            return { delivery: clone(WebhookDeliverySchema, this.visible(principal, request.deliveryId)) };
          },
          replayWebhookDelivery: async (request, context) => {
            const principal = this.record("ReplayWebhookDelivery", request, context);
            const delivery = this.visible(principal, request.deliveryId);
            if (delivery.accountId !== principal.accountId)
              throw fail(new ForbiddenError("only the account a delivery is for can do this"));
            if (refusal(delivery.url))
              throw fail(new InvalidWebhookUrl(refusal(delivery.url)!, "webhook_url"));
            if (this.account(delivery.accountId).pausedAt)
              throw fail(new InvalidStateError("paused; resume instead", "paused", ["active"]));
            if (this.inFlight.has(delivery.id))
              throw fail(
                new ConflictError("being attempted right now", "webhook_delivery_in_flight", {
                  delivery_id: delivery.id,
                  retryable: true,
                }),
              );
            delivery.status = "pending";
            delivery.nextAttemptAt = this.now();
            const answer = clone(WebhookDeliverySchema, delivery);
            answer.attempts = [];
            return { delivery: answer };
          },
          resumeWebhookDeliveries: async (request, context) => {
            const principal = this.record("ResumeWebhookDeliveries", request, context);
            const account = this.account(principal.accountId);
            let resumed = 0;
            if (account.pausedAt) {
              account.pausedAt = undefined;
              account.pausedBy = undefined;
              for (const held of this.deliveries) {
                if (held.accountId !== principal.accountId || held.status !== "paused") continue;
                held.status = "pending";
                held.nextAttemptAt = this.now();
                resumed += 1;
              }
            }
            return { settings: this.settings(principal.accountId), resumedDeliveries: BigInt(resumed) };
          },
          testWebhook: async (request, context) => {
            const principal = this.record("TestWebhook", request, context);
            if (!(WEBHOOK_EVENTS as readonly string[]).includes(request.eventType))
              throw fail(
                new ValidationError("bad event", [
                  { field: "event_type", code: "invalid_value", message: "unknown event" },
                ]),
              );
            const minute = Math.floor(this.clock.now().getTime() / 60_000);
            const key = `${principal.accountId}@${minute}`;
            const used = (this.testWindows.get(key) ?? 0) + 1;
            this.testWindows.set(key, used);
            if (used > TEST_CALLS_PER_MINUTE)
              throw fail(
                new RateLimitedError(`at most ${TEST_CALLS_PER_MINUTE} webhook tests per minute`, {
                  limit: TEST_CALLS_PER_MINUTE,
                  reset: (minute + 1) * 60,
                }),
              );
            const refused = refusal(request.url);
            if (refused) throw fail(new InvalidWebhookUrl(refused));
            const answer = this.testAnswers.get(request.url) ?? {
              success: true,
              responseCode: 200,
              responseTimeMs: 42,
              error: "",
            };
            return { ...answer, webhookId: this.nextId("msg") };
          },
          validateWebhookUrl: async (request, context) => {
            this.record("ValidateWebhookUrl", request, context);
            const refused = refusal(request.url);
            if (refused) throw fail(new InvalidWebhookUrl(refused));
            return { url: request.url };
          },
          listSentMail: async (request, context) => {
            const principal = this.record("ListSentMail", request, context);
            if (principal.role !== "staff")
              throw fail(new ForbiddenError("this operation is for staff only"));
            const matching = [...this.mails]
              .reverse()
              .filter((mail) => !request.accountId || mail.accountId === request.accountId);
            const page = this.page(matching, request.limit, request.cursor);
            return {
              mails: page.items,
              total: page.total,
              nextCursor: page.nextCursor,
              hasMore: page.hasMore,
            };
          },
        });
      },
      {
        router: {
          interceptors: serverInterceptors({
            logger: createLogger({ service: "fake-notifications", level: "silent" }),
            verifier,
          }),
        },
        transport: { interceptors: clientSide },
      },
    );
  }
}
