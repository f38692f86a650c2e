import { lookup } from "node:dns/promises";
import type { Resolver } from "../domain/ssrf/resolution.js";

/** A lookup that has not answered by then counts as a failure (getaddrinfo cannot be cancelled). */
export const DNS_TIMEOUT_MS = 2_000;

/**
 * The production resolver: the operating system's (getaddrinfo, so /etc/hosts and the
 * configured DNS servers), every A and AAAA answer in the resolver's order.
 */
export const systemResolver: Resolver = async (hostname) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`DNS lookup of ${hostname} timed out`)), DNS_TIMEOUT_MS);
  });
  try {
    const answers = await Promise.race([lookup(hostname, { all: true, verbatim: true }), timeout]);
    return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
  } finally {
    clearTimeout(timer);
  }
};
