import { createSystemResolver } from "@petri/service-kit";

/** A lookup that has not answered by then counts as a failure (getaddrinfo cannot be cancelled). */
export const DNS_TIMEOUT_MS = 2_000;

/**
 * The production resolver: the operating system's (getaddrinfo, so /etc/hosts and the
 * configured DNS servers), every A and AAAA answer in the resolver's order, within 2 s (a
 * delivery attempt has 5 s in all).
 */
export const systemResolver = createSystemResolver(DNS_TIMEOUT_MS);
