import { randomBytes } from "node:crypto";
import argon2 from "argon2";

export interface Argon2Cost {
  /** KiB. */
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

// OWASP Password Storage Cheat Sheet, argon2id minimum: m = 19 MiB, t = 2, p = 1.
export const ARGON2_COST: Readonly<Argon2Cost> = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export interface Argon2Parameters extends Argon2Cost {
  variant: string;
  version: number;
}

/** How passwords are hashed and checked; injectable so tests can seed old-parameter hashes. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a malformed hash (never throws). */
  verify(hash: string, password: string): Promise<boolean>;
  /** True when `hash` was made with weaker parameters than today's: rehash after a good login. */
  needsRehash(hash: string): boolean;
}

export function hashPassword(password: string, cost: Argon2Cost = ARGON2_COST): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id, ...cost });
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

const PHC =
  /^\$(argon2(?:id|i|d))\$(?:v=(\d+)\$)?m=(\d+),t=(\d+),p=(\d+)(?:,[^$]*)?\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;

/** The parameters recorded in an argon2 PHC string, or undefined when it is not one. */
export function argon2ParametersOf(hash: string): Argon2Parameters | undefined {
  const match = PHC.exec(hash);
  if (!match) return undefined;
  const [, variant, version, m, t, p] = match;
  return {
    variant: variant!,
    // A PHC string without v= is argon2 1.0 (0x10).
    version: version === undefined ? 0x10 : Number(version),
    memoryCost: Number(m),
    timeCost: Number(t),
    parallelism: Number(p),
  };
}

/**
 * True when `hash` is weaker than `target`: another variant than argon2id, an older
 * version, less memory or fewer passes. A hash stronger than today's is left alone (no
 * downgrade); parallelism is a throughput choice, not strength, so it is not compared.
 */
export function needsRehash(hash: string, target: Argon2Cost = ARGON2_COST): boolean {
  const params = argon2ParametersOf(hash);
  if (!params) return true;
  return (
    params.variant !== "argon2id" ||
    params.version < 0x13 ||
    params.memoryCost < target.memoryCost ||
    params.timeCost < target.timeCost
  );
}

export const argon2Hasher: PasswordHasher = {
  hash: (password) => hashPassword(password),
  verify: verifyPassword,
  needsRehash: (hash) => needsRehash(hash),
};

/**
 * A hash of a random password with today's parameters, verified against when an e-mail is
 * unknown, so that answer costs the same argon2 work as a wrong password.
 */
export function dummyPasswordHash(hasher: PasswordHasher): Promise<string> {
  return hasher.hash(randomBytes(24).toString("base64"));
}
