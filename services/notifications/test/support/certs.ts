/**
 * A throwaway TLS identity for the loopback receivers: one self-signed certificate for
 * *.hooks.test, hooks.test and 127.0.0.1, trusted by the sender through its CA option (or
 * NODE_EXTRA_CA_CERTS in a child process). Generated once per test file.
 */
import { type LoopbackCertificate, loopbackCertificate } from "@petri/testkit";

export type TestCertificate = LoopbackCertificate;

let generated: Promise<TestCertificate> | undefined;

export function testCertificate(): Promise<TestCertificate> {
  generated ??= loopbackCertificate("hooks.test", {
    dnsNames: ["hooks.test", "*.hooks.test"],
    ips: ["127.0.0.1", "127.0.0.2"],
  });
  return generated;
}
