/**
 * Verification grants the operator role: identity consumes the marketplace's
 * OperatorEligibilityChanged from the bus, changes the account's role, records
 * AccountAccessChanged, and ignores stale (older) versions. PostgreSQL and PGlite.
 */
import { events } from "@petri/contracts";
import { Role } from "@petri/contracts/identity";
import { buildEnvelope } from "@petri/events";
import { describe, expect, it } from "vitest";
import { ENGINES, type Identity, identityOfBlock, principalOf, registration } from "./support/harness.js";

describe.each(ENGINES)("operator role from the marketplace on %s", (engine) => {
  let identity: Identity;
  identityOfBlock(engine, (started) => (identity = started), { perTest: true });

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

  /** What `read` answers once it answers something, asked every 25 ms; fails with `never` after 400 tries. */
  async function polled<T>(read: () => Promise<T | undefined>, never: string): Promise<T> {
    for (let attempt = 0; attempt < 400; attempt += 1) {
      const value = await read();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(never);
  }

  async function roleEventually(accountId: string, expected: string) {
    await polled(async () => {
      const row = await identity.db
        .selectFrom("accounts")
        .select("role")
        .where("id", "=", accountId)
        .executeTakeFirstOrThrow();
      return row.role === expected ? row.role : undefined;
    }, `account ${accountId} never became ${expected}`);
  }

  async function appliedVersion(accountId: string) {
    return polled(async () => {
      const row = await identity.db
        .selectFrom("operator_role_sources")
        .select("operator_version")
        .where("account_id", "=", accountId)
        .executeTakeFirst();
      return row ? Number(row.operator_version) : undefined;
    }, "no operator status applied");
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
    return polled(async () => {
      const seen = await appliedVersion(accountId);
      return seen >= version ? seen : undefined;
    }, `version ${version} never applied`);
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
