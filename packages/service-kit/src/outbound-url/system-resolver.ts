import { lookup } from "node:dns/promises";
import type { Resolver } from "./resolution.js";

/** How long a registration-time lookup may take before the name counts as unresolved. */
export const WEBHOOK_DNS_TIMEOUT_MS = 3_000;

/**
 * Races `promise` against a timer; the timer is cleared either way. What `promise` stands for
 * keeps running (getaddrinfo cannot be cancelled), its answer is just no longer awaited.
 */
export async function withDnsTimeout<T>(
  promise: Promise<T>,
  hostname: string,
  timeoutMs: number,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`DNS lookup of ${hostname} timed out`), { code: "ETIMEOUT" })),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The production resolver: the operating system's (getaddrinfo, so /etc/hosts and the
 * configured DNS servers), every A and AAAA answer in the resolver's order
 * (`lookup(host, { all: true, verbatim: true })`); a lookup that has not answered within
 * `timeoutMs` counts as a failure.
 */
export function createSystemResolver(timeoutMs: number = WEBHOOK_DNS_TIMEOUT_MS): Resolver {
  return async (hostname) => {
    const answers = await withDnsTimeout(
      lookup(hostname, { all: true, verbatim: true }),
      hostname,
      timeoutMs,
    );
    return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
  };
}
