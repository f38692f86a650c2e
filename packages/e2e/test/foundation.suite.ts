/**
 * The foundation tests (scenarios.ts) both deployment modes run: registered in the calling
 * describe block against its deployment, so each mode's file keeps only its set-up and its
 * own tests.
 */
import { it } from "vitest";
import {
  type Target,
  credentialsLifecycle,
  errorsHaveOneShape,
  healthReportsEveryService,
  registrationEventReachesNotifications,
  staffChangesTier,
  staffSetsCustomLimits,
} from "./scenarios.js";
import { STAFF } from "./support/hosts.js";

/** Both are read when a test runs (the deployment starts in beforeAll); `gatewayUrls` lists every gateway. */
export function foundationScenarioTests(target: () => Target, gatewayUrls: () => string[]): void {
  it("GET /health reports every service ready over Connect", () => healthReportsEveryService(target()));
  it("an event written through identity's outbox is consumed by notifications", () =>
    registrationEventReachesNotifications(target()));
  it("errors have the spec's shape", () => errorsHaveOneShape(target()));
  it("register -> token -> me -> API key -> revoke -> 401", () => credentialsLifecycle(target()));
  it("the bootstrapped staff account changes an account's tier", () => staffChangesTier(target(), STAFF));
  it("staff give an account custom limits, which every gateway applies exactly", () =>
    staffSetsCustomLimits(gatewayUrls(), STAFF));
}
