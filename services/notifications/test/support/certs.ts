/**
 * A throwaway TLS identity for the loopback receivers: one self-signed certificate for
 * *.hooks.test, hooks.test and 127.0.0.1, trusted by the sender through its CA option (or
 * NODE_EXTRA_CA_CERTS in a child process). Generated once per test file.
 */
import selfsigned from "selfsigned";

export interface TestCertificate {
  cert: string;
  key: string;
}

let generated: Promise<TestCertificate> | undefined;

export function testCertificate(): Promise<TestCertificate> {
  generated ??= selfsigned
    .generate([{ name: "commonName", value: "hooks.test" }], {
      keyType: "ec",
      algorithm: "sha256",
      notBeforeDate: new Date(Date.now() - 60 * 60_000),
      notAfterDate: new Date(Date.now() + 7 * 24 * 60 * 60_000),
      extensions: [
        { name: "basicConstraints", cA: true },
        { name: "keyUsage", digitalSignature: true, keyCertSign: true },
        { name: "extKeyUsage", serverAuth: true },
        {
          name: "subjectAltName",
          altNames: [
            { type: 2, value: "hooks.test" },
            { type: 2, value: "*.hooks.test" },
            { type: 7, ip: "127.0.0.1" },
            { type: 7, ip: "127.0.0.2" },
          ],
        },
      ],
    })
    .then((pems) => ({ cert: pems.cert, key: pems.private }));
  return generated;
}
