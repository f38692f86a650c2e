import {
  type Clock,
  type FieldError,
  type Logger,
  UnauthenticatedError,
  ValidationError,
} from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { IdentityDb } from "../db/schema.js";
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, normalizeEmail } from "../domain/registration.js";
import { accessTokenClaims, newTokenId, signAccessToken } from "../security/access-tokens.js";
import type { PasswordHasher } from "../security/passwords.js";
import type { ActiveSigningKeySource } from "./signing-key-cache.js";

export interface IssueTokenDeps {
  db: Kysely<IdentityDb>;
  clock: Clock;
  logger: Logger;
  hasher: PasswordHasher;
  /** A hash to verify against when the e-mail is unknown, so that costs the same as a wrong password. */
  dummyHash(): Promise<string>;
  signingKeys: ActiveSigningKeySource;
  accessTokenTtlSeconds: number;
}

export interface IssueTokenInput {
  email: string;
  password: string;
}

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
  expiresAt: Date;
  kid: string;
}

/** One answer for an unknown e-mail and a wrong password, so neither can be told apart. */
const INVALID_CREDENTIALS = "invalid e-mail or password";

function validate(input: IssueTokenInput): FieldError[] {
  const problems: FieldError[] = [];
  if (input.email.trim() === "")
    problems.push({ field: "email", code: "missing_required", message: "email is required" });
  else if (input.email.length > EMAIL_MAX_LENGTH)
    problems.push({ field: "email", code: "invalid_value", message: "email is too long" });
  // Bounded before any hashing: an oversized password costs no argon2 work. (No minimum here:
  // a policy change must not lock out an older, shorter password.)
  if (input.password === "")
    problems.push({ field: "password", code: "missing_required", message: "password is required" });
  else if ([...input.password].length > PASSWORD_MAX_LENGTH)
    problems.push({
      field: "password",
      code: "invalid_value",
      message: `password is longer than ${PASSWORD_MAX_LENGTH} characters`,
    });
  return problems;
}

/** E-mail + password -> a signed access token. */
export function makeIssueToken(deps: IssueTokenDeps) {
  return async function issueToken(input: IssueTokenInput): Promise<IssuedToken> {
    const problems = validate(input);
    if (problems.length > 0) throw new ValidationError("the credentials are invalid", problems);

    const account = await deps.db
      .selectFrom("accounts")
      .select(["id", "role", "tier", "password_hash", "credentials_epoch"])
      .where("email", "=", normalizeEmail(input.email))
      .executeTakeFirst();
    // Unknown e-mail: still run one argon2 verification, against a hash nobody knows.
    const storedHash = account?.password_hash ?? (await deps.dummyHash());
    const passwordOk = await deps.hasher.verify(storedHash, input.password);
    if (!account || !passwordOk) throw new UnauthenticatedError(INVALID_CREDENTIALS);

    if (deps.hasher.needsRehash(account.password_hash)) {
      await rehash(deps, account.id, account.password_hash, input.password);
    }

    const now = deps.clock.now();
    const key = await deps.signingKeys.current();
    const claims = accessTokenClaims(
      {
        accountId: account.id,
        role: account.role,
        tier: account.tier,
        credentialsEpoch: account.credentials_epoch,
      },
      now,
      deps.accessTokenTtlSeconds,
      newTokenId(),
    );
    const accessToken = await signAccessToken(key, claims);
    return {
      accessToken,
      expiresIn: deps.accessTokenTtlSeconds,
      expiresAt: new Date(claims.exp * 1000),
      kid: key.kid,
    };
  };
}

/**
 * Upgrades a hash made with weaker parameters, now that the password is known. Only if the
 * hash is still the one verified (a concurrent password change wins), and never at the
 * cost of the login: a failure is logged and retried at the next login.
 */
async function rehash(deps: IssueTokenDeps, accountId: string, oldHash: string, password: string) {
  try {
    const newHash = await deps.hasher.hash(password);
    await deps.db
      .updateTable("accounts")
      .set({ password_hash: newHash })
      .where("id", "=", accountId)
      .where("password_hash", "=", oldHash)
      .execute();
  } catch (error) {
    deps.logger.warn(
      { err: error, accountId },
      "could not upgrade a password hash; will retry at next login",
    );
  }
}
