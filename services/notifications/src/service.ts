import { NotificationsService } from "@petri/contracts/notifications";
import { type ServiceDeps, createServiceRuntime } from "@petri/events";
import type { HostedService } from "@petri/service-kit";
import { notificationsMigrations } from "./db/migrations/index.js";
import type { NotificationsDb } from "./db/schema.js";
import { notificationsConsumers } from "./events/subscriptions.js";

/** Composition root of the notifications service: webhooks, signing, deliveries, e-mail. */
export function createNotificationsService(deps: ServiceDeps): HostedService {
  const runtime = createServiceRuntime<NotificationsDb>({
    ...deps,
    service: "notifications",
    migrations: notificationsMigrations,
    consumers: notificationsConsumers,
  });
  return {
    ...runtime.hosted,
    routes: (router) => router.service(NotificationsService, {}),
  };
}
