import { create } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import {
  type CancelSubmissionRequest,
  CancelSubmissionResponseSchema,
  type CloudLabsService,
  type GetProviderRequest,
  GetProviderResponseSchema,
  type GetSubmissionRawDataRequest,
  GetSubmissionRawDataResponseSchema,
  type GetSubmissionRequest,
  GetSubmissionResponseSchema,
  type InterpretIntakeRequest,
  InterpretIntakeResponseSchema,
  ListProvidersResponseSchema,
  type ListSubmissionsRequest,
  ListSubmissionsResponseSchema,
  ListSupportedTypesResponseSchema,
  type TranslateExperimentRequest,
  TranslateExperimentResponseSchema,
  type TranslateIntakeRequest,
  TranslateIntakeResponseSchema,
  type ValidateIntakeRequest,
  ValidateIntakeResponseSchema,
} from "@petri/contracts/cloudlabs";
import { type AccountAudience, authorizeAccount, kPrincipal, parseSafeJson } from "@petri/service-kit";
import type { makeCancelSubmission } from "../app/cancel-submission.js";
import type { catalogUseCases } from "../app/catalog.js";
import type { makeGetSubmission } from "../app/get-submission.js";
import type { makeGetSubmissionRawData } from "../app/get-submission-raw-data.js";
import type { makeInterpretIntake } from "../app/interpret-intake.js";
import type { makeListSubmissions } from "../app/list-submissions.js";
import type { makeTranslateExperiment } from "../app/translate-experiment.js";
import type { translateIntake } from "../app/translation.js";
import type { validateIntakeUseCase } from "../app/validate-intake.js";
import { interpretationForms } from "../contract/interpretation-message.js";
import {
  providerMessage,
  submissionMessage,
  translationMessage,
  usd,
} from "../contract/submission-message.js";

export interface CloudLabsUseCases {
  catalog: typeof catalogUseCases;
  interpretIntake: ReturnType<typeof makeInterpretIntake>;
  translateIntake: typeof translateIntake;
  validateIntake: typeof validateIntakeUseCase;
  translateExperiment: ReturnType<typeof makeTranslateExperiment>;
  listSubmissions: ReturnType<typeof makeListSubmissions>;
  getSubmission: ReturnType<typeof makeGetSubmission>;
  cancelSubmission: ReturnType<typeof makeCancelSubmission>;
  getSubmissionRawData: ReturnType<typeof makeGetSubmissionRawData>;
}

/**
 * Who may call each procedure: any account (the catalog and translation are the same for all;
 * submissions are their owner's, checked by the use cases). Checked against the contract by
 * cloudlabs-rpc.test.ts.
 */
export const CLOUDLABS_AUDIENCES = {
  listProviders: "account",
  getProvider: "account",
  listSupportedTypes: "account",
  interpretIntake: "account",
  translateIntake: "account",
  validateIntake: "account",
  translateExperiment: "account",
  listSubmissions: "account",
  getSubmission: "account",
  cancelSubmission: "account",
  getSubmissionRawData: "account",
} as const satisfies Record<string, AccountAudience>;

function caller(ctx: HandlerContext, procedure: keyof typeof CLOUDLABS_AUDIENCES) {
  return authorizeAccount(ctx.values.get(kPrincipal), CLOUDLABS_AUDIENCES[procedure]);
}

/** The intake as sent (JSON text), or a 422 naming it. */
function intakeOf(json: string): unknown {
  return parseSafeJson("intake", json);
}

/** Proto <-> domain mapping and the audience of every procedure; the use cases hold the behaviour. */
export class CloudLabsRpc implements ServiceImpl<typeof CloudLabsService> {
  constructor(private readonly useCases: CloudLabsUseCases) {}

  async listProviders(_request: unknown, ctx: HandlerContext) {
    caller(ctx, "listProviders");
    return create(ListProvidersResponseSchema, {
      providers: this.useCases.catalog.listProviders().map(providerMessage),
    });
  }

  async getProvider(request: GetProviderRequest, ctx: HandlerContext) {
    caller(ctx, "getProvider");
    return create(GetProviderResponseSchema, {
      provider: providerMessage(this.useCases.catalog.getProvider(request.providerId)),
    });
  }

  async listSupportedTypes(_request: unknown, ctx: HandlerContext) {
    caller(ctx, "listSupportedTypes");
    return create(ListSupportedTypesResponseSchema, {
      supportedTypes: this.useCases.catalog.listSupportedTypes().map((t) => ({
        experimentType: t.experiment_type,
        providers: [...t.providers],
        description: t.description,
      })),
    });
  }

  async interpretIntake(request: InterpretIntakeRequest, ctx: HandlerContext) {
    caller(ctx, "interpretIntake");
    const answer = await this.useCases.interpretIntake(intakeOf(request.intakeJson), request.providerId);
    return create(InterpretIntakeResponseSchema, {
      ...interpretationForms(answer.interpretation),
      interpreter: answer.interpreter,
    });
  }

  async translateIntake(request: TranslateIntakeRequest, ctx: HandlerContext) {
    caller(ctx, "translateIntake");
    const translation = this.useCases.translateIntake(intakeOf(request.intakeJson), request.providerId);
    return create(TranslateIntakeResponseSchema, { translation: translationMessage(translation) });
  }

  async validateIntake(request: ValidateIntakeRequest, ctx: HandlerContext) {
    caller(ctx, "validateIntake");
    const answer = this.useCases.validateIntake(intakeOf(request.intakeJson), request.providerId);
    if (!answer.valid)
      return create(ValidateIntakeResponseSchema, {
        valid: false,
        providerId: answer.providerId,
        errors: answer.errors,
      });
    return create(ValidateIntakeResponseSchema, {
      valid: true,
      providerId: answer.providerId,
      warnings: answer.warnings,
      estimatedCostUsd: usd(answer.estimatedCostCents),
      estimatedTurnaroundDays: answer.turnaroundDays,
    });
  }

  async translateExperiment(request: TranslateExperimentRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "translateExperiment");
    const answer = await this.useCases.translateExperiment(principal, {
      experimentId: request.experimentId || relayedExperimentId(request),
      providerId: request.providerId,
    });
    return create(TranslateExperimentResponseSchema, {
      translation: translationMessage(answer.translation),
      submission: submissionMessage(answer.submission),
    });
  }

  async listSubmissions(request: ListSubmissionsRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "listSubmissions");
    const page = await this.useCases.listSubmissions(principal, {
      experimentId: request.experimentId,
      providerId: request.providerId,
      status: request.status,
      limit: request.limit,
      offset: request.offset,
    });
    return create(ListSubmissionsResponseSchema, {
      submissions: page.submissions.map(submissionMessage),
      total: BigInt(page.total),
      limit: page.limit,
      offset: page.offset,
    });
  }

  async getSubmission(request: GetSubmissionRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "getSubmission");
    const row = await this.useCases.getSubmission(principal, request.submissionId);
    return create(GetSubmissionResponseSchema, { submission: submissionMessage(row) });
  }

  async cancelSubmission(request: CancelSubmissionRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "cancelSubmission");
    const row = await this.useCases.cancelSubmission(principal, request.submissionId);
    return create(CancelSubmissionResponseSchema, { submission: submissionMessage(row) });
  }

  async getSubmissionRawData(request: GetSubmissionRawDataRequest, ctx: HandlerContext) {
    const principal = caller(ctx, "getSubmissionRawData");
    const raw = await this.useCases.getSubmissionRawData(principal, request.submissionId);
    return create(GetSubmissionRawDataResponseSchema, raw);
  }
}

/** A caller built before experiment_id existed sends the experiment: only its id is used. */
function relayedExperimentId(request: TranslateExperimentRequest): string {
  return request.experiment?.id ?? "";
}
