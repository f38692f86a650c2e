/**
 * Verification grants the operator role: identity consumes the marketplace's
 * OperatorEligibilityChanged from the bus, changes the account's role, records
 * AccountAccessChanged, and ignores stale (older) versions. PostgreSQL and PGlite.
 */
import { events } from "@petri/contracts";
import { Role } from "@petri/contracts/identity";
import { buildEnvelope } from "@petri/events";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  Backend,
  ENGINES,
  type Identity,
  principalOf,
  registration,
  startIdentity,
  testSecrets,
} from "./support/harness.js";

describe.each(ENGINES)("operator role from the marketplace on %s", (engine) => {
  let backend: Backend;
  let identity: Identity;

  beforeEach(async () => {
    backend = await Backend.open(engine);
    identity = await startIdentity(backend.database, testSecrets());
  });
  afterEach(async () => {
    await identity.stop();
    await backend.close();
  });

  async function publishStatus(accountId: string, status: string, version: number) {
    const envelope = buildEnvelope(
      events.marketplace.operatorEligibilityChanged,
      {
        eligibility: { operatorId: "op_test", accountId, status, version: BigInt(version) },
        previousStatus: "",
      },
      { aggregateId: "op_test", aggregateVersion: version, occurredAt: identity.clock.now() },
    );
    await identity.bus.publish(envelope);
  }

  async function roleEventually(accountId: string, expected: string) {
    for (let attempt = 0; attempt < 400; attempt += 1) {
      const row = await identity.db
        .selectFrom("accounts")
        .select("role")
        .where("id", "=", accountId)
        .executeTakeFirstOrThrow();
      if (row.role === expected) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`account ${accountId} never became ${expected}`);
  }

  async function appliedVersion(accountId: string) {
    for (let attempt = 0; attempt < 400; attempt += 1) {
      const row = await identity.db
        .selectFrom("operator_role_sources")
        .select("operator_version")
        .where("account_id", "=", accountId)
        .executeTakeFirst();
      if (row) return Number(row.operator_version);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error("no operator status applied");
  }

  it("grants the operator role on active, takes it back on suspension, ignores a stale event", async () => {
    const { account } = await identity.as().registerAccount(registration("lab"));
    const accountId = account!.id;

    await publishStatus(accountId, "active", 2);
    await roleEventually(accountId, "operator");
    const me = await identity.as(principalOf(account!, "operator")).getAccount({});
    expect(me.account?.role).toBe(Role.OPERATOR);

    await publishStatus(accountId, "suspended", 4);
    await roleEventually(accountId, "requester");

    // Version 3 (an older "active") arrives late: it must not re-grant the role.
    await publishStatus(accountId, "active", 3);
    await publishStatus(accountId, "suspended", 5);
    expect(await waitForVersion(accountId, 5)).toBe(5);
    const row = await identity.db
      .selectFrom("accounts")
      .select("role")
      .where("id", "=", accountId)
      .executeTakeFirstOrThrow();
    expect(row.role).toBe("requester");

    const changes = await identity.db
      .selectFrom("outbox")
      .select("type")
      .where("type", "=", "petri.identity.v1.AccountAccessChanged")
      .execute();
    expect(changes).toHaveLength(2);
  });

  async function waitForVersion(accountId: string, version: number) {
    for (let attempt = 0; attempt < 400; attempt += 1) {
      const seen = await appliedVersion(accountId);
      if (seen >= version) return seen;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`version ${version} never applied`);
  }

  it("never changes a staff account and skips unknown accounts", async () => {
    await publishStatus("usr_unknown", "active", 1);
    const { account } = await identity.as().registerAccount(registration("staffer"));
    await identity.db.updateTable("accounts").set({ role: "staff" }).where("id", "=", account!.id).execute();
    await publishStatus(account!.id, "active", 1);
    expect(await appliedVersion(account!.id)).toBe(1);
    const row = await identity.db
      .selectFrom("accounts")
      .select("role")
      .where("id", "=", account!.id)
      .executeTakeFirstOrThrow();
    expect(row.role).toBe("staff");
  });
});
