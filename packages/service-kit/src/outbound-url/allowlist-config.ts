/**
 * The test allowlist's configuration, shared by every service that checks webhook URLs
 * (notifications at delivery, experiments at registration), so both read one variable with
 * one rule:
 *
 *   PETRI_WEBHOOK_TEST_ALLOWLIST  TESTS ONLY: CIDR blocks webhooks may reach despite the SSRF
 *                                 policy (e.g. "127.0.0.1/32"); empty by default, and refused
 *                                 when NODE_ENV is "production"
 */
import { z } from "zod";
import { AddressAllowlist } from "./address-policy.js";

/** The problem a test-only setting is reported with when NODE_ENV is production. */
export const TEST_ONLY_SETTING_PROBLEM = "is for tests only and must not be set when NODE_ENV is production";

/** "127.0.0.1/32, ::1" -> an AddressAllowlist; names the first malformed block. */
export const addressAllowlistSchema = z
  .string()
  .trim()
  .transform((value, ctx) => {
    try {
      return AddressAllowlist.parse(value);
    } catch (error) {
      ctx.addIssue({
        code: "custom",
        message: `must be CIDR blocks separated by commas: ${(error as Error).message}`,
      });
      return z.NEVER;
    }
  });

/** The variables: spread them into a service's configuration object schema. */
export const webhookTestAllowlistVariables = {
  NODE_ENV: z.string().trim().optional(),
  PETRI_WEBHOOK_TEST_ALLOWLIST: addressAllowlistSchema.optional(),
};

/** A superRefine step: a test allowlist in a production deployment is refused at start. */
export function refuseTestAllowlistInProduction(
  config: { NODE_ENV?: string | undefined; PETRI_WEBHOOK_TEST_ALLOWLIST?: AddressAllowlist | undefined },
  ctx: z.RefinementCtx,
): void {
  if (
    config.NODE_ENV === "production" &&
    config.PETRI_WEBHOOK_TEST_ALLOWLIST &&
    config.PETRI_WEBHOOK_TEST_ALLOWLIST.size > 0
  )
    ctx.addIssue({
      code: "custom",
      path: ["PETRI_WEBHOOK_TEST_ALLOWLIST"],
      message: TEST_ONLY_SETTING_PROBLEM,
    });
}

/** The allowlist alone (a service with no other webhook settings), both run modes. */
export function webhookTestAllowlistConfigSchema() {
  return z.object(webhookTestAllowlistVariables).superRefine(refuseTestAllowlistInProduction);
}

/** The parsed variable, or the empty allowlist (production). */
export function webhookTestAllowlistFromConfig(config: {
  PETRI_WEBHOOK_TEST_ALLOWLIST?: AddressAllowlist | undefined;
}): AddressAllowlist {
  return config.PETRI_WEBHOOK_TEST_ALLOWLIST ?? AddressAllowlist.empty;
}
