import { runClusterService } from "@petri/host";
import {
  exitOnConfigError,
  loadConfig,
  webhookTestAllowlistConfigSchema,
  webhookTestAllowlistFromConfig,
} from "@petri/service-kit";
import { blobStoreConfigSchema } from "./blobs/index.js";
import { maxSubmitBodyBytes } from "./domain/results/index.js";
import { createExperimentsService } from "./service.js";

// Where result files go (PETRI_BLOB_STORE fs|s3 and its settings; see src/blobs/config.ts).
const blobStore = exitOnConfigError(() => loadConfig(blobStoreConfigSchema));
// Webhook URLs are checked at registration with the operating system's resolver; the
// TESTS-ONLY PETRI_WEBHOOK_TEST_ALLOWLIST (refused when NODE_ENV=production) is the same
// variable, with the same schema, as the notifications service's.
const allowlist = webhookTestAllowlistFromConfig(
  exitOnConfigError(() => loadConfig(webhookTestAllowlistConfigSchema())),
);

await runClusterService({
  service: "experiments",
  defaultPort: 7102,
  create: (deps) => createExperimentsService(deps, { blobStore, webhookUrlCheck: { allowlist } }),
  // A results submission carries its files base64-encoded in SubmitResults (up to ~39 MiB of
  // text); a little room for the message framing on top.
  maxRequestBytes: maxSubmitBodyBytes() + 1024 * 1024,
});
