/**
 * Secrets at rest (docs/architecture.md section 6): a dump of the identity schema holds no
 * password, no API key secret and no private key; sealed keys open only with the KEK. Plus
 * the standalone secrets file and a restart of a persisted PGlite database.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDatabase } from "@petri/db";
import { KeyEncryptionKey, SecretDecryptionError } from "@petri/service-kit";
import { sql } from "kysely";
import { createLocalJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashApiKeySecret } from "../src/security/api-keys.js";
import { IDENTITY_SECRETS_FILE, loadOrCreateIdentitySecrets } from "../src/security/secrets-file.js";
import { IDENTITY_KEK_PURPOSE, openSigningKey } from "../src/security/signing-keys.js";
import { sealedPrivateKey } from "../src/db/signing-keys.js";
import {
  type Backend,
  ENGINES,
  type Identity,
  SYSTEM,
  identityOfBlock,
  principalOf,
  registration,
  startIdentity,
  testSecrets,
} from "./support/harness.js";

describe.each(ENGINES)("secrets at rest on %s", (engine) => {
  let backend: Backend;
  let identity: Identity;
  const secrets = testSecrets();
  const staff = { email: "root@petri.example", password: "staff password at rest" };

  identityOfBlock(
    engine,
    (started, database) => {
      identity = started;
      backend = database;
    },
    { options: { ...secrets, staff } },
  );

  /** Every row of every table of the identity schema as text (bytea as hex), like a dump would hold. */
  async function dumpIdentitySchema(): Promise<string> {
    const tables = await sql<{ table_name: string }>`
      select table_name from information_schema.tables where table_schema = 'identity' order by table_name`.execute(
      backend.database.root,
    );
    expect(tables.rows.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(["accounts", "api_keys", "signing_keys", "quota_usage", "outbox"]),
    );
    let dump = "";
    for (const { table_name } of tables.rows) {
      const rows = await sql<{
        row: string;
      }>`select t::text as row from ${sql.table(`identity.${table_name}`)} t`.execute(backend.database.root);
      dump += `${table_name}\n${rows.rows.map((r) => r.row).join("\n")}\n`;
    }
    return dump;
  }

  const forms = (secret: string | Uint8Array) => {
    const bytes = typeof secret === "string" ? Buffer.from(secret, "utf8") : Buffer.from(secret);
    return [
      bytes.toString("utf8"),
      bytes.toString("hex"),
      bytes.toString("base64"),
      bytes.toString("base64url"),
    ].filter((form) => form.length >= 16);
  };

  it("holds no password, API key secret or private key, only hashes, prefixes and ciphertext (K4, K8)", async () => {
    const input = registration("dump");
    const registered = await identity.as().registerAccount(input);
    const created = await identity.as(principalOf(registered.account!)).createApiKey({ name: "second" });
    await identity.as().issueToken(input);
    const staffRow = await identity.db
      .selectFrom("accounts")
      .select("id")
      .where("email", "=", staff.email)
      .executeTakeFirstOrThrow();
    await identity.as(principalOf(staffRow, "staff")).rotateSigningKey({});
    await identity.as(SYSTEM).authenticateApiKey({ secret: created.secret });

    const kek = KeyEncryptionKey.fromBytes(secrets.kek, { purpose: IDENTITY_KEK_PURPOSE });
    const keyRows = await identity.db.selectFrom("signing_keys").selectAll().execute();
    expect(keyRows).toHaveLength(2);
    const privateForms = keyRows.flatMap((row) => {
      const privateKey = openSigningKey(kek, row.kid, sealedPrivateKey(row));
      const jwk = privateKey.export({ format: "jwk" });
      return [
        ...forms(Buffer.from(jwk.d!, "base64url")),
        jwk.d!,
        ...forms(privateKey.export({ format: "der", type: "pkcs8" })),
        privateKey.export({ format: "pem", type: "pkcs8" }).toString().split("\n")[1]!,
      ];
    });

    const dump = await dumpIdentitySchema();
    const forbidden = [
      ...forms(input.password),
      ...forms(staff.password),
      ...forms(registered.apiKeySecret),
      ...forms(created.secret),
      // The random body alone, too: only the 12-character display prefix may appear.
      registered.apiKeySecret.slice(12),
      created.secret.slice(12),
      ...forms(secrets.kek),
      ...forms(secrets.apiKeyPepper),
      ...privateForms,
    ];
    for (const secret of forbidden)
      expect(dump, `dump contains ${secret.slice(0, 8)}…`).not.toContain(secret);

    // What is there instead: the display prefix and HMAC(pepper, secret).
    const stored = await identity.db
      .selectFrom("api_keys")
      .select(["display_prefix", "secret_hash"])
      .where("id", "=", created.apiKey!.id)
      .executeTakeFirstOrThrow();
    expect(stored.display_prefix).toBe(created.secret.slice(0, 12));
    expect(
      Buffer.from(stored.secret_hash).equals(hashApiKeySecret(secrets.apiKeyPepper, created.secret)),
    ).toBe(true);

    // Sealed private keys: a KEK id, and they open with the KEK only.
    for (const row of keyRows) {
      expect(row.kek_id).toBe(kek.id);
      expect(row.private_key_nonce).toHaveLength(12);
      const otherKek = KeyEncryptionKey.fromBytes(randomBytes(32), { purpose: IDENTITY_KEK_PURPOSE });
      expect(() => openSigningKey(otherKek, row.kid, sealedPrivateKey(row))).toThrow(SecretDecryptionError);
    }
    expect(
      Buffer.from(keyRows[0]!.private_key_nonce).equals(Buffer.from(keyRows[1]!.private_key_nonce)),
    ).toBe(false);
    // The public JWK has no private member.
    for (const row of keyRows)
      expect(Object.keys(row.public_jwk).sort()).toEqual(["alg", "crv", "kid", "kty", "use", "x"]);
  });
});

describe("standalone secrets file", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "petri-identity-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // The file mechanics (exclusive creation, mode, damaged files) are service-kit's
  // loadOrCreateSecretsFile's, tested there; here: identity's file and its sizes.
  it("holds identity's KEK and API key pepper, read back unchanged", async () => {
    const dataDir = path.join(dir, "identity-file");
    const created = await loadOrCreateIdentitySecrets(dataDir);
    expect(created.kek).toHaveLength(32);
    expect(created.apiKeyPepper).toHaveLength(32);
    const file = path.join(dataDir, IDENTITY_SECRETS_FILE);
    const onDisk = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    expect(onDisk).toEqual({
      version: 1,
      kek: created.kek.toString("base64"),
      api_key_pepper: created.apiKeyPepper.toString("base64"),
    });
    const again = await loadOrCreateIdentitySecrets(dataDir);
    expect(again.kek.equals(created.kek) && again.apiKeyPepper.equals(created.apiKeyPepper)).toBe(true);

    await writeFile(file, JSON.stringify({ ...onDisk, api_key_pepper: "c2hvcnQ=" }));
    await expect(loadOrCreateIdentitySecrets(dataDir)).rejects.toThrow(
      /"api_key_pepper" must be at least 32 bytes/,
    );
    await writeFile(file, "{ not json");
    await expect(loadOrCreateIdentitySecrets(dataDir)).rejects.toThrow(/not a valid identity secrets file/);
  });

  it("keeps tokens and API keys valid across a restart of a persisted PGlite database", async () => {
    // The standalone layout: the secrets file sits in PGlite's own data directory.
    const dataDir = path.join(dir, "petri-data");
    const run = async <T>(fn: (identity: Identity) => Promise<T>): Promise<T> => {
      const secrets = await loadOrCreateIdentitySecrets(dataDir);
      const database = await createDatabase({ driver: "pglite", dataDir });
      const identity = await startIdentity(database, secrets);
      try {
        return await fn(identity);
      } finally {
        await identity.stop();
        await database.destroy();
      }
    };
    const input = registration("persisted");
    const first = await run(async (identity) => {
      const registered = await identity.as().registerAccount(input);
      const token = (await identity.as().issueToken(input)).accessToken;
      return { apiKey: registered.apiKeySecret, token, now: identity.clock.now() };
    });
    await run(async (identity) => {
      const set = await identity.as(SYSTEM).listSigningKeys({});
      const keySet = createLocalJWKSet({ keys: set.keys.map((k) => JSON.parse(k.publicJwkJson)) });
      await expect(
        jwtVerify(first.token, keySet, {
          algorithms: ["EdDSA"],
          issuer: set.issuer,
          audience: set.audience,
          currentDate: first.now,
        }),
      ).resolves.toBeDefined();
      await expect(identity.as(SYSTEM).authenticateApiKey({ secret: first.apiKey })).resolves.toBeDefined();
      await expect(identity.as().issueToken(input)).resolves.toBeDefined();
    });
  });
});
