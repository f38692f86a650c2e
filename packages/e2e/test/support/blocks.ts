/**
 * The deployments and receivers a describe block's tests share: each is started before the
 * block's tests and stopped after them (vitest runs the after-hooks in reverse, so what
 * started last stops first). Read the returned fields inside the tests: they are set once the
 * block's beforeAll has run.
 */
import { afterAll, beforeAll } from "vitest";
import type { ExperimentsTarget } from "../experiments.scenarios.js";
import { STAFF, startClusterHost, startStandaloneHost } from "./hosts.js";
import { WebhookReceiver } from "./webhook-receiver.js";

export interface DeploymentOfBlock<Host> {
  host: Host;
  /** Every gateway of the deployment, with the bootstrapped staff account. */
  target: ExperimentsTarget;
}

/** `gatewayUrls` are the host's gateways; the hook timeouts are vitest's own when left out. */
function deploymentOfBlock<Host extends { stop(): Promise<void> }>(
  start: () => Promise<Host>,
  gatewayUrls: (host: Host) => string[],
  hookTimeouts: { start?: number; stop?: number } = {},
): DeploymentOfBlock<Host> {
  const block = {} as DeploymentOfBlock<Host>;
  beforeAll(async () => {
    block.host = await start();
    block.target = { baseUrls: gatewayUrls(block.host), staff: STAFF };
  }, hookTimeouts.start);
  afterAll(() => block.host?.stop(), hookTimeouts.stop);
  return block;
}

export function standaloneOfBlock(...args: Parameters<typeof startStandaloneHost>) {
  return deploymentOfBlock(
    () => startStandaloneHost(...args),
    (host) => [host.petri.url],
  );
}

/** A cluster starts every service from source, which takes minutes on a loaded machine. */
export function clusterOfBlock(...args: Parameters<typeof startClusterHost>) {
  return deploymentOfBlock(
    () => startClusterHost(...args),
    (host) => host.baseUrls,
    { start: 360_000, stop: 120_000 },
  );
}

export function webhookReceiverOfBlock(): { receiver: WebhookReceiver } {
  const block = {} as { receiver: WebhookReceiver };
  beforeAll(async () => {
    block.receiver = await WebhookReceiver.start();
  });
  afterAll(() => block.receiver?.close());
  return block;
}
