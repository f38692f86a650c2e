/**
 * The set-up most scenario files share: per describe block, a database of its own, a webhook
 * receiver and one notifications replica on that database.
 */
import { afterAll, beforeAll } from "vitest";
import { Backend, type Engine, type Notifications, type Setup, startNotifications } from "./harness.js";
import { TestReceiver } from "./receiver.js";

/** What the tests of a notificationsOfBlock block work with. */
export interface NotificationsBlock {
  notifications: Notifications;
  /** The loopback HTTPS receiver for the block's webhooks (answers 200 unless told otherwise). */
  receiver: TestReceiver;
  /** The block's database, for more replicas on it. */
  backend: Backend;
}

/**
 * For the tests of the enclosing describe block: a database of its own on `engine`, a receiver
 * and one notifications replica on that database (`setup`, or what it returns when called just
 * before the replica starts), ready before the block's tests and closed after them. `started`
 * gets them once they run (awaited), to keep them, script the receiver or resolve host names.
 */
export function notificationsOfBlock(
  engine: Engine,
  started: (block: NotificationsBlock) => unknown,
  setup: Setup | (() => Setup) = {},
): void {
  let backend: Backend | undefined;
  let receiver: TestReceiver | undefined;
  let notifications: Notifications | undefined;
  beforeAll(async () => {
    backend = await Backend.open(engine);
    receiver = await TestReceiver.start();
    notifications = await startNotifications(backend.database, typeof setup === "function" ? setup() : setup);
    await started({ notifications, receiver, backend });
  });
  afterAll(async () => {
    await notifications?.stop();
    await receiver?.close();
    await backend?.close();
  });
}
