import type { FakeService } from "./fake-experiments.js";

/**
 * What fake-experiments' gatewayWithServices still names as its notifications slot. The fake
 * notifications service is gone (its route tests run on the real services, D353); delete
 * this file with that slot.
 */
export type FakeNotifications = FakeService;
