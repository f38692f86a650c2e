import { type Clock, ValidationError } from "@petri/service-kit";
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { QuotaPolicyName, TierName } from "@petri/contracts/vocabulary";
import type { IdentityDb } from "../db/schema.js";
import {
  type QuotaSource,
  type WindowState,
  bindingWindow,
  quotaSource,
  usageWindows,
  validateDraw,
  windowBounds,
} from "../domain/quota.js";

export interface AcquireQuotaInput {
  policy: QuotaPolicyName | undefined;
  /** Account id (account), source address (anonymous, auth_failures) or pair (credential_failures). */
  subject: string;
  tier: TierName | undefined;
  requested: number;
}

export interface QuotaDraw {
  granted: number;
  binding: WindowState;
  windows: WindowState[];
}

/**
 * Draws up to `requested` from every window of a policy, atomically across all replicas, in
 * ONE statement (no transaction around it):
 *
 *   INSERT INTO quota_usage (one row per policy and subject, every window's counter in it)
 *   SELECT the limits (fixed, or read from the custom-tier account in the same statement)
 *   ON CONFLICT (policy, subject) DO UPDATE SET
 *     each window's count = (its count, or 0 when the draw opens a newer window) + grant
 *   RETURNING the counters
 *
 * where grant = max(0, min(requested, remaining of every window)). Exact under concurrency
 * because every window of a subject lives in one row: ON CONFLICT DO UPDATE locks that row and
 * evaluates SET against its latest committed version (not the statement's snapshot), so
 * concurrent draws queue on the lock and each sees the counts the previous one left. With a
 * row per window no single statement could do this: the grant depends on several rows, and a
 * data-modifying CTE's changes are invisible to the rest of its statement, while an UPDATE
 * rechecks only its own target row after waiting for a lock, not the rows its condition read.
 *
 * A replica whose clock is behind (its minute already ended elsewhere) never resets a newer
 * window: the newest window start wins and the draw counts in it.
 */
export function makeAcquireQuota(deps: { db: Kysely<IdentityDb>; clock: Clock }) {
  return async function acquireQuota(input: AcquireQuotaInput): Promise<QuotaDraw> {
    const problems = validateDraw(input);
    if (problems.length > 0 || !input.policy)
      throw new ValidationError("the quota draw is invalid", problems);
    const source = quotaSource(input.policy, input.tier);
    const usage = await drawStatement(deps.db, {
      policy: input.policy,
      subject: input.subject,
      requested: input.requested,
      now: deps.clock.now(),
      source,
    }).executeTakeFirstOrThrow();
    const windows = usageWindows({
      minuteStart: usage.minute_start,
      minuteLimit: usage.minute_limit,
      minuteUsed: usage.minute_used,
      dayStart: usage.day_start,
      dayLimit: usage.day_limit,
      dayUsed: usage.day_used,
    });
    return { granted: usage.granted, binding: bindingWindow(windows), windows };
  };
}

interface DrawParameters {
  policy: QuotaPolicyName;
  subject: string;
  requested: number;
  now: Date;
  source: QuotaSource;
}

/**
 * The limits, as expressions over the one row the SELECT yields. A custom-tier account's own
 * limits are read here, by primary key, so the gateway never carries them; an account that
 * is not (or no longer) custom gets the fallback limits.
 */
function limitsOf(db: Kysely<IdentityDb>, draw: DrawParameters) {
  const { limits } = draw.source;
  const integer = (value: number | null) => sql<number>`${value}::integer`;
  const one = db.selectFrom(sql<{ one: number }>`(select 1)`.as("one"));
  const source = draw.source.fromAccount
    ? one.leftJoin("accounts as account", (join) =>
        join.on("account.id", "=", draw.subject).on("account.tier", "=", "custom"),
      )
    : one;
  const minuteLimit: RawBuilder<number> = draw.source.fromAccount
    ? sql<number>`coalesce(account.rate_limit_per_minute, ${integer(limits.minute)})`
    : integer(limits.minute);
  const dayLimit: RawBuilder<number | null> = draw.source.fromAccount
    ? sql<number>`coalesce(account.rate_limit_per_day, ${integer(limits.day)})`
    : integer(limits.day);
  return { source, minuteLimit, dayLimit };
}

function drawStatement(db: Kysely<IdentityDb>, draw: DrawParameters) {
  const minuteStart = windowBounds("minute", draw.now).start;
  const dayStart = windowBounds("day", draw.now).start;
  // Typed parameters: an INSERT ... SELECT resolves an untyped one as text.
  const integer = (value: number | null) => sql<number>`${value}::integer`;
  const timestamp = (value: Date) => sql<Date>`${value}::timestamptz`;

  const { source, minuteLimit, dayLimit } = limitsOf(db, draw);
  // A first draw: nothing used yet. LEAST ignores NULL, so no day limit means none applies.
  const firstGrant = sql<number>`greatest(0, least(${integer(draw.requested)}, ${minuteLimit}, ${dayLimit}))`;

  // On conflict, `excluded` is the row the SELECT proposed (its `granted` is the first-draw
  // grant: requested capped by the limits) and `quota_usage` the locked, latest row.
  const minuteUsed = sql<number>`(case when quota_usage.minute_start >= excluded.minute_start
    then quota_usage.minute_used else 0 end)`;
  const dayUsed = sql<number>`(case when quota_usage.day_start >= excluded.day_start
    then quota_usage.day_used else 0 end)`;
  const grant = sql<number>`greatest(0, least(excluded.granted,
    excluded.minute_limit - ${minuteUsed}, excluded.day_limit - ${dayUsed}))`;

  return db
    .insertInto("quota_usage")
    .columns([
      "policy",
      "subject",
      "minute_start",
      "minute_limit",
      "minute_used",
      "day_start",
      "day_limit",
      "day_used",
      "granted",
    ])
    .expression(
      source.select([
        sql<string>`${draw.policy}::text`.as("policy"),
        sql<string>`${draw.subject}::text`.as("subject"),
        timestamp(minuteStart).as("minute_start"),
        minuteLimit.as("minute_limit"),
        firstGrant.as("minute_used"),
        timestamp(dayStart).as("day_start"),
        dayLimit.as("day_limit"),
        firstGrant.as("day_used"),
        firstGrant.as("granted"),
      ]),
    )
    .onConflict((conflict) =>
      conflict.columns(["policy", "subject"]).doUpdateSet({
        minute_start: sql<Date>`greatest(quota_usage.minute_start, excluded.minute_start)`,
        minute_limit: sql<number>`excluded.minute_limit`,
        minute_used: sql<number>`${minuteUsed} + ${grant}`,
        day_start: sql<Date>`greatest(quota_usage.day_start, excluded.day_start)`,
        day_limit: sql<number | null>`excluded.day_limit`,
        day_used: sql<number>`${dayUsed} + ${grant}`,
        granted: grant,
      }),
    )
    .returning([
      "minute_start",
      "minute_limit",
      "minute_used",
      "day_start",
      "day_limit",
      "day_used",
      "granted",
    ]);
}
