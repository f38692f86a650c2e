/**
 * A throwaway TLS identity for HTTPS receivers on loopback (webhook receivers of the tests and
 * the bench): one self-signed certificate, its own CA, for 127.0.0.1 and the names given, valid
 * from an hour ago for a week. Senders trust it through their CA option
 * (PETRI_WEBHOOK_TEST_CA_FILE, or NODE_EXTRA_CA_CERTS in a child process).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import selfsigned from "selfsigned";

export interface LoopbackCertificate {
  cert: string;
  key: string;
}

export interface LoopbackCertificateOptions {
  /** DNS names besides the addresses (e.g. "hooks.test", "*.hooks.test"). */
  dnsNames?: readonly string[];
  /** IP addresses it is valid for (default 127.0.0.1). */
  ips?: readonly string[];
}

const HOUR_MS = 60 * 60_000;

export async function loopbackCertificate(
  commonName: string,
  options: LoopbackCertificateOptions = {},
): Promise<LoopbackCertificate> {
  const pems = await selfsigned.generate([{ name: "commonName", value: commonName }], {
    keyType: "ec",
    algorithm: "sha256",
    notBeforeDate: new Date(Date.now() - HOUR_MS),
    notAfterDate: new Date(Date.now() + 7 * 24 * HOUR_MS),
    extensions: [
      { name: "basicConstraints", cA: true },
      { name: "keyUsage", digitalSignature: true, keyCertSign: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          ...(options.dnsNames ?? []).map((value) => ({ type: 2 as const, value })),
          ...(options.ips ?? ["127.0.0.1"]).map((ip) => ({ type: 7 as const, ip })),
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/** Writes the certificate's PEM to a new temporary directory; returns the file's path. */
export function writeCaFile(cert: string, prefix: string): string {
  const caFile = path.join(mkdtempSync(path.join(tmpdir(), `${prefix}-`)), "receiver-ca.pem");
  writeFileSync(caFile, cert);
  return caFile;
}
