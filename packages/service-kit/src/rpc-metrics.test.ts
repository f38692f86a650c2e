import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import {
  Health,
  HealthCheckResponseSchema,
  HealthCheckResponse_ServingStatus,
} from "@petri/contracts/health";
import { describe, expect, it } from "vitest";
import { NotFoundError } from "./errors.js";
import { createLogger } from "./logger.js";
import { metricSampler } from "@petri/fixtures/service-kit";
import { metricsRegistry } from "./metrics.js";
import { serverInterceptors } from "./interceptors/index.js";
import { generateInternalKeyPair, InternalTokenVerifier } from "./principal.js";

const metricSample = metricSampler(metricsRegistry);

const CHECK = "grpc.health.v1.Health/Check";

describe("rpcMetricsInterceptor (in serverInterceptors)", () => {
  it("counts calls by procedure and code and times them", async () => {
    const keys = await generateInternalKeyPair();
    const verifier = await InternalTokenVerifier.create([keys.publicKeyPem]);
    const transport = createRouterTransport(
      (router) =>
        router.service(Health, {
          check(req) {
            if (req.service === "missing") throw new NotFoundError("service", "missing");
            return create(HealthCheckResponseSchema, { status: HealthCheckResponse_ServingStatus.SERVING });
          },
        }),
      {
        router: {
          interceptors: serverInterceptors({
            logger: createLogger({ service: "test", level: "silent" }),
            verifier,
          }),
        },
      },
    );
    const client = createClient(Health, transport);
    const before = {
      ok: await metricSample("petri_rpc_server_calls_total", { procedure: CHECK, code: "ok" }),
      notFound: await metricSample("petri_rpc_server_calls_total", { procedure: CHECK, code: "not_found" }),
      count: await metricSample("petri_rpc_server_duration_seconds_count", { procedure: CHECK }),
    };

    await client.check({ service: "" });
    await client.check({ service: "" });
    await expect(client.check({ service: "missing" })).rejects.toSatisfy(
      (error) => error instanceof ConnectError && error.code === Code.NotFound,
    );

    expect(await metricSample("petri_rpc_server_calls_total", { procedure: CHECK, code: "ok" })).toBe(
      before.ok + 2,
    );
    expect(await metricSample("petri_rpc_server_calls_total", { procedure: CHECK, code: "not_found" })).toBe(
      before.notFound + 1,
    );
    expect(await metricSample("petri_rpc_server_duration_seconds_count", { procedure: CHECK })).toBe(
      before.count + 3,
    );
  });
});
