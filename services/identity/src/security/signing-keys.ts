/**
 * Ed25519 key pairs that sign access tokens. The public half is published as a JWK
 * (ListSigningKeys); the private half is stored only sealed under the KEK.
 */
import { type KeyObject, createPrivateKey, generateKeyPairSync } from "node:crypto";
import type { KeyEncryptionKey, SealedSecret } from "@petri/service-kit";
import { calculateJwkThumbprint } from "jose";

/**
 * The label fingerprinted into identity's KEK id (KeyEncryptionKey.fromBytes(bytes, { purpose })).
 * Every stored signing key records that id: changing the label strands them all.
 */
export const IDENTITY_KEK_PURPOSE = "petri-identity/kek-id/v1";

/** The only algorithm access tokens use; verifiers pin it. */
export const ACCESS_TOKEN_ALGORITHM = "EdDSA";

/** A type alias (not an interface) so it stays assignable to JSON values. */
export type PublicSigningJwk = {
  kty: "OKP";
  crv: "Ed25519";
  x: string;
  kid: string;
  alg: typeof ACCESS_TOKEN_ALGORITHM;
  use: "sig";
};

export interface NewSigningKey {
  /** RFC 7638 thumbprint of the public key. */
  kid: string;
  publicJwk: PublicSigningJwk;
  /** PKCS#8 DER; seal it before it goes anywhere. */
  privateKeyDer: Buffer;
}

export async function generateSigningKey(): Promise<NewSigningKey> {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const { x } = publicKey.export({ format: "jwk" });
  if (typeof x !== "string") throw new Error("Ed25519 public key without x");
  const kid = await calculateJwkThumbprint({ kty: "OKP", crv: "Ed25519", x }, "sha256");
  return {
    kid,
    publicJwk: { kty: "OKP", crv: "Ed25519", x, kid, alg: ACCESS_TOKEN_ALGORITHM, use: "sig" },
    privateKeyDer: privateKey.export({ format: "der", type: "pkcs8" }),
  };
}

/** The associated data that binds a sealed private key to its kid. */
function associatedData(kid: string): string {
  return `petri-identity/signing-key/${kid}`;
}

export function sealSigningKey(kek: KeyEncryptionKey, key: NewSigningKey): SealedSecret {
  return kek.seal(key.privateKeyDer, associatedData(key.kid));
}

/** The private key of `kid`; throws SecretDecryptionError for a wrong KEK or a tampered row. */
export function openSigningKey(kek: KeyEncryptionKey, kid: string, sealed: SealedSecret): KeyObject {
  const der = kek.open(sealed, associatedData(kid));
  try {
    const key = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
    if (key.asymmetricKeyType !== "ed25519") throw new Error(`signing key ${kid} is not Ed25519`);
    return key;
  } finally {
    der.fill(0);
  }
}
