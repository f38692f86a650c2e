import { portFree } from "@petri/service-kit";

export { freePort } from "@petri/service-kit";

/**
 * A port base for one local cluster (deploy/local/start.sh: services on base+1..base+7, gateways
 * from base+20) whose `offsets` are all free. Chosen below Linux's ephemeral range (32768+),
 * where outgoing connections could take a port between this check and the moment a process
 * binds it. Bounded: gives up after 50 tries rather than spin.
 */
export async function freePortBase(offsets: readonly number[]): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    if ((await Promise.all(offsets.map((offset) => portFree(base + offset)))).every(Boolean)) return base;
  }
  throw new Error("no free port range for the cluster");
}
