/**
 * An in-memory CloudLabsService for gateway tests, TranslateExperiment only: the service's view
 * of the experiments (what its events consumer would have applied), the requester-only rule
 * (anyone else NotFound) and a draft refused (InvalidArgument). Calls cross a Connect router
 * transport with the real internal-principal interceptors, so the fake records the principal
 * and the exact request the gateway sent.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createRouterTransport } from "@connectrpc/connect";
import { CloudLabsService, SubmissionSchema, TranslationSchema } from "@petri/contracts/cloudlabs";
import { Health, HealthCheckResponse_ServingStatus } from "@petri/contracts/health";
import {
  type Clock,
  type InternalTokenVerifier,
  NotFoundError,
  type Principal,
  ValidationError,
  type clientInterceptors,
  createLogger,
  domainErrorToConnectError,
  kPrincipal,
  serverInterceptors,
} from "@petri/service-kit";

export class FakeCloudLabs {
  readonly experimentViews = new Map<string, { requesterAccountId: string; status: string }>();
  readonly calls: Array<{ method: string; request: any; principal: Principal | undefined }> = [];
  private sequence = 0;

  constructor(readonly clock: Clock) {}

  transport(verifier: InternalTokenVerifier, clientSide: ReturnType<typeof clientInterceptors>) {
    return createRouterTransport(
      (router) => {
        router.service(Health, {
          check: async () => ({ status: HealthCheckResponse_ServingStatus.SERVING }),
        });
        router.service(CloudLabsService, {
          translateExperiment: async (request, context) => {
            const principal = context.values.get(kPrincipal);
            this.calls.push({ method: "TranslateExperiment", request, principal });
            const view = this.experimentViews.get(request.experimentId);
            if (!view || view.requesterAccountId !== principal?.accountId)
              throw domainErrorToConnectError(new NotFoundError("experiment", request.experimentId));
            if (view.status === "draft")
              throw domainErrorToConnectError(
                new ValidationError("a draft cannot be sent to a lab", [
                  { field: "experiment_id", code: "invalid_value", message: "submit the draft first" },
                ]),
              );
            const protocolJson = JSON.stringify({ refs: {}, instructions: [] });
            const turnaround = { min: 3, max: 5 };
            return {
              translation: create(TranslationSchema, {
                providerId: request.providerId,
                protocolFormat: "autoprotocol",
                protocolJson,
                estimatedCostUsd: "120",
                estimatedTurnaroundDays: turnaround,
              }),
              submission: create(SubmissionSchema, {
                id: `cls_${String(++this.sequence).padStart(26, "0")}`,
                experimentId: request.experimentId,
                providerId: request.providerId,
                protocolFormat: "autoprotocol",
                translatedProtocolJson: protocolJson,
                status: "pending",
                adapter: "sandbox",
                estimatedCostUsd: "120",
                estimatedTurnaroundDays: turnaround,
                createdAt: timestampFromDate(this.clock.now()),
              }),
            };
          },
        });
      },
      {
        router: {
          interceptors: serverInterceptors({
            logger: createLogger({ service: "fake-cloudlabs", level: "silent" }),
            verifier,
          }),
        },
        transport: { interceptors: clientSide },
      },
    );
  }
}
