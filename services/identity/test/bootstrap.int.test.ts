/**
 * Start-up: the signing key and the staff account, with two replicas starting at once,
 * restarts, and a wrong key-encryption key. Same scenarios on PostgreSQL and PGlite.
 */
import { randomBytes } from "node:crypto";
import { Code } from "@connectrpc/connect";
import { Role } from "@petri/contracts/identity";
import { createUnitOfWork } from "@petri/events";
import { KeyEncryptionKey } from "@petri/service-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeBootstrapStaff } from "../src/app/bootstrap-staff.js";
import { makeEnsureSigningKey } from "../src/app/ensure-signing-key.js";
import { ActiveSigningKeySource } from "../src/app/signing-key-cache.js";
import type { IdentityDb } from "../src/db/schema.js";
import { argon2Hasher } from "../src/security/passwords.js";
import { IDENTITY_KEK_PURPOSE } from "../src/security/signing-keys.js";
import {
  Backend,
  CountingHasher,
  ENGINES,
  type Identity,
  SYSTEM,
  logger,
  principalOf,
  registration,
  rejection,
  startIdentity,
  testSecrets,
} from "./support/harness.js";

describe.each(ENGINES)("start-up on %s", (engine) => {
  let backend: Backend;
  const running: Identity[] = [];
  const start = async (...args: Parameters<typeof startIdentity>) => {
    const identity = await startIdentity(...args);
    running.push(identity);
    return identity;
  };

  beforeEach(async () => {
    backend = await Backend.open(engine);
  });
  afterEach(async () => {
    for (const identity of running.splice(0)) await identity.stop();
    await backend.close();
  });

  const staff = { email: "ops@petri.example", password: "first staff password" };

  it("two replicas starting at once end up with one active signing key and one staff account", async () => {
    const secrets = testSecrets();
    const [a, b] = await Promise.all([
      start(backend.database, { ...secrets, staff }),
      start(await backend.connection(), { ...secrets, staff }),
    ]);
    const keys = await a.db.selectFrom("signing_keys").select(["kid", "state"]).execute();
    expect(keys).toEqual([{ kid: expect.any(String), state: "active" }]);
    const accounts = await a.db.selectFrom("accounts").select(["email", "role"]).execute();
    expect(accounts).toEqual([{ email: staff.email, role: "staff" }]);
    // Both replicas sign with it, and the published set has exactly that key.
    const set = await b.as(SYSTEM).listSigningKeys({});
    expect(set.keys.map((k) => k.kid)).toEqual([keys[0]!.kid]);
    await expect(a.as().issueToken(staff)).resolves.toBeDefined();
    await expect(b.as().issueToken(staff)).resolves.toBeDefined();
  });

  it("lets exactly one of many concurrent creators make the signing key and the staff account", async () => {
    const secrets = testSecrets();
    const identity = await start(backend.database, secrets, { start: false });
    const kek = KeyEncryptionKey.fromBytes(secrets.kek, { purpose: IDENTITY_KEK_PURPOSE });
    const connections = await Promise.all(Array.from({ length: 4 }, () => backend.connection()));
    const dbs = connections.map((c) => c.forSchema<IdentityDb>("identity"));
    const clock = identity.clock;

    const ensured = await Promise.all(
      dbs.flatMap((db) =>
        [1, 2].map(() =>
          makeEnsureSigningKey({ db, clock, kek, signingKeys: new ActiveSigningKeySource(db, kek) })(),
        ),
      ),
    );
    expect(ensured.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(ensured.map((r) => r.kid)).size).toBe(1);

    const outcomes = await Promise.all(
      dbs.map((db) =>
        makeBootstrapStaff({
          db,
          clock,
          logger,
          hasher: argon2Hasher,
          unitOfWork: createUnitOfWork(db, () => undefined),
        })(staff),
      ),
    );
    expect(outcomes.filter((o) => o === "created")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "unchanged")).toHaveLength(3);
    expect(await identity.db.selectFrom("accounts").select("role").execute()).toEqual([{ role: "staff" }]);
  });

  it("bootstraps staff idempotently: a restart with the same values changes nothing", async () => {
    const secrets = testSecrets();
    const first = await start(backend.database, { ...secrets, staff });
    const before = await first.db.selectFrom("accounts").selectAll().executeTakeFirstOrThrow();
    await first.stop();

    const hasher = new CountingHasher();
    const second = await start(backend.database, { ...secrets, staff, passwordHasher: hasher });
    const after = await second.db.selectFrom("accounts").selectAll().executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect(hasher.hashes).toBe(1); // the dummy hash only; no new password hash
    const events = await second.db.selectFrom("outbox").select("type").execute();
    expect(events.map((e) => e.type)).toEqual(["petri.identity.v1.AccountRegistered"]);
  });

  it("resets the password and promotes an existing account, then staff endpoints work", async () => {
    const secrets = testSecrets();
    const plain = await start(backend.database, secrets);
    const input = registration("promoted");
    const { account } = await plain.as().registerAccount(input);
    await plain.stop();

    const promoted = await start(backend.database, {
      ...secrets,
      staff: { email: input.email.toUpperCase(), password: "the new staff password" },
    });
    const row = await promoted.db
      .selectFrom("accounts")
      .select(["role", "version"])
      .where("id", "=", account!.id)
      .executeTakeFirstOrThrow();
    expect(row.role).toBe("staff");
    expect(row.version).toBeGreaterThan(1);
    expect((await rejection(promoted.as().issueToken(input))).code).toBe(Code.Unauthenticated);
    await expect(
      promoted.as().issueToken({ email: input.email, password: "the new staff password" }),
    ).resolves.toBeDefined();
    const events = await promoted.db
      .selectFrom("outbox")
      .select("type")
      .where("aggregate_id", "=", account!.id)
      .orderBy("seq")
      .execute();
    expect(events.map((e) => e.type)).toEqual([
      "petri.identity.v1.AccountRegistered",
      "petri.identity.v1.AccountAccessChanged",
      // One raise of the credentials epoch for the promotion and the new password together.
      "petri.identity.v1.CredentialsRevoked",
    ]);
    const me = await promoted.as(principalOf(account!, "staff")).getAccount({});
    expect(me.account!.role).toBe(Role.STAFF);
    await expect(promoted.as(principalOf(account!, "staff")).rotateSigningKey({})).resolves.toBeDefined();
  });

  it("refuses to start with a KEK other than the one that sealed the signing key", async () => {
    const secrets = testSecrets();
    const first = await start(backend.database, secrets);
    const { kek_id } = await first.db.selectFrom("signing_keys").select("kek_id").executeTakeFirstOrThrow();
    await first.stop();
    const wrong = await startIdentity(
      backend.database,
      { ...secrets, kek: randomBytes(32) },
      { start: false },
    );
    running.push(wrong);
    await expect(wrong.service.start()).rejects.toThrow(
      new RegExp(`sealed under key-encryption key ${kek_id}`),
    );
    // And nothing was replaced: the original key is still the only active one.
    const keys = await first.db.selectFrom("signing_keys").select(["kek_id", "state"]).execute();
    expect(keys).toEqual([{ kek_id, state: "active" }]);
  });

  it("keeps tokens and API keys working across a restart with the same secrets", async () => {
    const secrets = testSecrets();
    const first = await start(backend.database, secrets);
    const input = registration("restart");
    const registered = await first.as().registerAccount(input);
    const kid = (await first.as(SYSTEM).listSigningKeys({})).keys[0]!.kid;
    await first.stop();

    const second = await start(backend.database, secrets);
    expect((await second.as(SYSTEM).listSigningKeys({})).keys.map((k) => k.kid)).toEqual([kid]);
    await expect(
      second.as(SYSTEM).authenticateApiKey({ secret: registered.apiKeySecret }),
    ).resolves.toBeDefined();
    await expect(second.as().issueToken(input)).resolves.toBeDefined();

    // Another pepper cannot find the key (the stored value is keyed, not a plain hash).
    const otherPepper = await start(backend.database, { ...secrets, apiKeyPepper: randomBytes(32) });
    const error = await rejection(
      otherPepper.as(SYSTEM).authenticateApiKey({ secret: registered.apiKeySecret }),
    );
    expect(error.code).toBe(Code.Unauthenticated);
  });
});
