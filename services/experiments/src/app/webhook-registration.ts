/**
 * Registering a webhook URL (issue 6): when a use case stores a request whose
 * communication_preferences.webhook_url is new (a create or a draft's submission, a PATCH
 * that changes the URL of a submitted request), the URL's host is resolved and every address
 * checked with the shared SSRF policy (@petri/service-kit checkWebhookUrlAddresses) BEFORE
 * the use case's transaction: no DNS lookup ever runs inside a database transaction.
 *
 * - refused (a text rule, or any answer that is not public): 422 validation_failed with the
 *   field error {field: communication_preferences.webhook_url, code: invalid_webhook_url};
 * - unresolved (no answer, no address, or none within 3 s): accepted, with the warning
 *   webhook_url_unresolved where the use case answers warnings (the notifications service
 *   checks every address again when each delivery connects);
 * - drafts are not registered: their URL is checked when the draft is submitted.
 *
 * The URL is checked before the transaction, but the transaction decides from the row it
 * locks: `CheckedWebhookUrl.verdictFor(url)` answers only for the URL that was checked, and
 * otherwise (the row changed in between, or the check was skipped for a likely idempotent
 * replay) throws WebhookUrlNotChecked, which rolls the transaction back so that
 * `withCheckedWebhookUrl` checks that URL and runs it again.
 */
import {
  type AddressAllowlist,
  ConflictError,
  type FieldError,
  type Logger,
  type Resolver,
  checkWebhookUrlAddresses,
} from "@petri/service-kit";
import type { RequestWarning } from "../domain/contracts.js";

export const WEBHOOK_URL_PATH = "communication_preferences.webhook_url";
export const INVALID_WEBHOOK_URL = "invalid_webhook_url";
export const WEBHOOK_URL_UNRESOLVED = "webhook_url_unresolved";

/** The experiments service's `webhookUrlCheck` option. */
export interface WebhookUrlCheckOptions {
  /** How hostnames resolve (default: the operating system's resolver, 3 s timeout). */
  resolver?: Resolver | undefined;
  /** TESTS ONLY (PETRI_WEBHOOK_TEST_ALLOWLIST): addresses let through; production: empty. */
  allowlist: AddressAllowlist;
}

/** What registering a URL means for the request being stored. */
export type WebhookRegistration =
  /** No URL to register (none named, unchanged, or a draft). */
  | { kind: "none" }
  | { kind: "ok" }
  | { kind: "refused"; error: FieldError }
  | { kind: "unresolved"; warning: RequestWarning };

const NONE: WebhookRegistration = { kind: "none" };

/** The webhook URL a request names, when it names one as a string (the intake judges the rest). */
export function webhookUrlOf(request: unknown): string | undefined {
  if (typeof request !== "object" || request === null) return undefined;
  const preferences = (request as Record<string, unknown>).communication_preferences;
  if (typeof preferences !== "object" || preferences === null) return undefined;
  const url = (preferences as Record<string, unknown>).webhook_url;
  return typeof url === "string" ? url : undefined;
}

/** Resolves and checks one URL (undefined: nothing to register, no I/O). */
export type CheckWebhookRegistration = (url: string | undefined) => Promise<WebhookRegistration>;

export function makeCheckWebhookRegistration(
  deps: WebhookUrlCheckOptions & { logger: Logger },
): CheckWebhookRegistration {
  return async function checkWebhookRegistration(url) {
    if (url === undefined) return NONE;
    const verdict = await checkWebhookUrlAddresses(url, {
      resolver: deps.resolver,
      allowlist: deps.allowlist,
    });
    switch (verdict.outcome) {
      case "ok":
        return { kind: "ok" };
      case "refused":
        // The category is for the log only; the caller learns the rule, never an address.
        deps.logger.info(
          { reason: verdict.reason, category: verdict.category },
          "webhook URL refused at registration",
        );
        return {
          kind: "refused",
          error: {
            field: WEBHOOK_URL_PATH,
            code: INVALID_WEBHOOK_URL,
            message: `${WEBHOOK_URL_PATH} is not allowed: ${verdict.message}`,
          },
        };
      case "unresolved":
        deps.logger.info(
          { hostname: verdict.target.hostname },
          "webhook URL did not resolve at registration",
        );
        return {
          kind: "unresolved",
          warning: {
            path: WEBHOOK_URL_PATH,
            code: WEBHOOK_URL_UNRESOLVED,
            message:
              `${WEBHOOK_URL_PATH}: ${verdict.message}; it was saved, and every delivery checks ` +
              "its addresses again when it connects",
          },
        };
    }
  };
}

const UNCHECKED = Symbol("unchecked");

/** Thrown inside a transaction whose URL to register is not the one checked before it. */
export class WebhookUrlNotChecked extends Error {
  constructor(readonly url: string | undefined) {
    super("the webhook URL to register was not checked before the transaction");
  }
}

/** The outcome of the check made before a transaction, for the URL it was made for. */
export class CheckedWebhookUrl {
  private constructor(
    private readonly url: string | undefined | typeof UNCHECKED,
    private readonly registration: WebhookRegistration,
  ) {}

  /** No check made (e.g. the request is most likely an idempotent replay). */
  static readonly unchecked = new CheckedWebhookUrl(UNCHECKED, NONE);

  static of(url: string | undefined, registration: WebhookRegistration): CheckedWebhookUrl {
    return new CheckedWebhookUrl(url, registration);
  }

  /** The registration of `url` (what the transaction is about to store); throws when it was not checked. */
  verdictFor(url: string | undefined): WebhookRegistration {
    if (url === undefined) return NONE;
    if (this.url !== url) throw new WebhookUrlNotChecked(url);
    return this.registration;
  }
}

/** Attempts of `run` (a URL changing under every attempt is a conflict worth a retry by the client). */
const MAX_RUNS = 3;

/**
 * Checks `url` (or nothing, with `skip`), then runs the transaction `run` with the outcome;
 * when `run` finds another URL to register (WebhookUrlNotChecked), checks that one and runs
 * again.
 */
export async function withCheckedWebhookUrl<T>(
  check: CheckWebhookRegistration,
  url: string | undefined | CheckedWebhookUrl,
  run: (checked: CheckedWebhookUrl) => Promise<T>,
): Promise<T> {
  let checked = url instanceof CheckedWebhookUrl ? url : CheckedWebhookUrl.of(url, await check(url));
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(checked);
    } catch (error) {
      if (!(error instanceof WebhookUrlNotChecked)) throw error;
      if (attempt >= MAX_RUNS)
        throw new ConflictError("the experiment changed meanwhile; retry", "concurrent_update", {
          retryable: true,
        });
      checked = CheckedWebhookUrl.of(error.url, await check(error.url));
    }
  }
}
