/**
 * The marketplace loop of the fake ExperimentsService: claim, start, issues, results with
 * signed file URLs, approval, disputes and their staff resolution. Just enough behaviour
 * (who may act, from which status, what the answer holds, money in cents) to exercise the
 * gateway's mapping of every RPC; FakeExperiments mixes these handlers into its router.
 */
import { createHash } from "node:crypto";
import { clone, create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import {
  type AcceptanceEvaluation,
  ApprovalSchema,
  type Dispute,
  DisputeSchema,
  type Experiment,
  ExperimentAction,
  ExperimentSchema,
  ExperimentStatus,
  type ExperimentsService,
  OperatorAssignmentSchema,
  OperatorIssueSchema,
  type ResultsRecord,
} from "@petri/contracts/experiments";
import {
  ConflictError,
  type DomainError,
  ForbiddenError,
  InvalidStateError,
  NotFoundError,
  type Principal,
  kPrincipal,
  ValidationError,
  domainErrorToConnectError,
} from "@petri/service-kit";
import type { FakeExperiments } from "./fake-experiments.js";

/**
 * An experiment as the fake answers it: a copy, with the two available actions the gateway
 * reads (approve and dispute) as the experiments service's lifecycle allows them.
 */
export function outgoing(experiment: Experiment): Experiment {
  const copy = clone(ExperimentSchema, experiment);
  const pending = copy.status === ExperimentStatus.PENDING_APPROVAL;
  copy.availableActions = [
    ...(pending ? [ExperimentAction.APPROVE_RESULTS] : []),
    ...(pending || copy.status === ExperimentStatus.COMPLETED ? [ExperimentAction.DISPUTE] : []),
  ];
  return copy;
}

const fail = (error: DomainError) => domainErrorToConnectError(error);
const DAY_MS = 86_400_000;
/** How long the fake's signed file URLs stay valid. */
export const URL_TTL_SECONDS = 900;

export interface StoredFile {
  content: Uint8Array;
  name: string;
  contentType: string;
  checksumSha256: string;
}

/** What the loop keeps besides the experiments themselves (tests read and seed it). */
export class ResultsLoopState {
  /** Accounts that act as active labs: account id -> its operator. */
  readonly operators = new Map<string, { operatorId: string; labName: string }>();
  /** Results records (as JSON text) by experiment id, file urls not yet signed. */
  readonly results = new Map<string, Record<string, unknown>>();
  readonly files = new Map<string, StoredFile>();
  readonly disputes = new Map<string, Dispute>();
  /** The evaluation GetDispute returns (JSON text). */
  evaluationJson = JSON.stringify({ verdict: "fail", reasons: ["MIC above 8 ug/mL"], flags: [] });
  /**
   * Typed forms GetResults and GetDispute send beside the JSON text when set (a service built
   * since D342); unset, the fake answers as a service built before it.
   */
  typedResults?: ResultsRecord;
  typedEvaluation?: AcceptanceEvaluation;
  private sequence = 0;

  nextId(prefix: string): string {
    return `${prefix}_${String(++this.sequence).padStart(26, "0")}`;
  }

  /** The signature the fake expects for a file URL. */
  static signature(fileId: string, expires: bigint): string {
    return createHash("sha256").update(`${fileId}|${expires}`).digest("base64url");
  }

  /** Stores a file and returns its id. */
  addFile(name: string, contentType: string, content: Uint8Array): string {
    const id = this.nextId("fil");
    const checksumSha256 = createHash("sha256").update(content).digest("hex");
    this.files.set(id, { content, name, contentType, checksumSha256 });
    return id;
  }
}

export function resultsLoopHandlers(fake: FakeExperiments): Partial<ServiceImpl<typeof ExperimentsService>> {
  const { loop, clock } = fake;
  const now = () => timestampFromDate(clock.now());
  const nowSeconds = () => BigInt(Math.floor(clock.now().getTime() / 1000));

  /** The experiment the calling lab is assigned to (NotFound for anyone else). */
  const assigned = (principal: Principal, id: string): Experiment => {
    const lab = loop.operators.get(principal.accountId);
    const experiment = fake.experiments.get(id);
    if (!experiment || !lab || experiment.operator?.operatorId !== lab.operatorId)
      throw fail(new NotFoundError("experiment", id));
    return experiment;
  };

  /** The requester's own experiment; staff may read but not act as the requester. */
  const requesters = (principal: Principal, id: string): Experiment => {
    const experiment = fake.visible(principal, id);
    if (experiment.requesterAccountId !== principal.accountId)
      throw fail(new ForbiddenError("only the requester may do this"));
    return experiment;
  };

  const staffOnly = (principal: Principal) => {
    if (principal.role !== "staff") throw fail(new ForbiddenError("staff only"));
  };

  const signedUrl = (fileId: string) => {
    const expires = nowSeconds() + BigInt(URL_TTL_SECONDS);
    return `/files/${fileId}?expires=${expires}&signature=${ResultsLoopState.signature(fileId, expires)}`;
  };

  const dispute = (id: string): Dispute => {
    const found = loop.disputes.get(id);
    if (!found) throw fail(new NotFoundError("dispute", id));
    return found;
  };

  /** Keeps a submission's results (raw data files as sent) and moves it to pending_approval. */
  const storeResults = (experiment: Experiment, body: Record<string, any>) => {
    const uploads = (body.raw_data_uploads ?? []) as Array<Record<string, string>>;
    loop.results.set(experiment.id, {
      experiment_id: experiment.id,
      hypothesis_supported: body.hypothesis_supported,
      confidence_level: body.confidence_level,
      summary: body.summary,
      structured_data: { measurements: body.measurements ?? [], statistics: body.statistics ?? null },
      raw_data_files: uploads.map((upload) => ({
        name: upload.name,
        format: upload.format,
        file_id: loop.addFile(upload.name!, "text/csv", Buffer.from(upload.content_base64!, "base64")),
      })),
      operator_notes: body.notes ?? "",
    });
    experiment.resultsSubmittedAt = now();
    return fake.touch(experiment, ExperimentStatus.PENDING_APPROVAL);
  };

  return {
    claimExperiment: async (request, context: HandlerContext) => {
      const principal = fake.record("ClaimExperiment", request, context);
      const lab = loop.operators.get(principal.accountId);
      if (!lab)
        throw fail(new ForbiddenError("not an active verified operator", { failed_filters: ["status"] }));
      const experiment = fake.experiments.get(request.experimentId);
      if (!experiment) throw fail(new NotFoundError("experiment", request.experimentId));
      if (experiment.operator)
        throw fail(new ConflictError("another lab claimed it first", "experiment_already_claimed"));
      fake.requireStatus(experiment, ["open"]);
      const unconfirmed = (["equipment_confirmation", "authorization_confirmation"] as const).filter(
        (field) =>
          !(field === "equipment_confirmation"
            ? request.equipmentConfirmation
            : request.authorizationConfirmation),
      );
      if (unconfirmed.length > 0)
        throw fail(
          new ValidationError(
            "both confirmations are required",
            unconfirmed.map((field) => ({ field, code: "invalid_value", message: "must be true" })),
          ),
        );
      experiment.operator = create(OperatorAssignmentSchema, {
        operatorId: lab.operatorId,
        labName: lab.labName,
        operatorAccountId: principal.accountId,
        claimedAt: now(),
        deadline: timestampFromDate(new Date(clock.now().getTime() + 14 * DAY_MS)),
        estimatedStartDate: request.estimatedStartDate,
        notes: request.notes,
      });
      return fake.touch(experiment, ExperimentStatus.CLAIMED);
    },

    startExperiment: async (request, context) => {
      const principal = fake.record("StartExperiment", request, context);
      const experiment = assigned(principal, request.experimentId);
      fake.requireStatus(experiment, ["claimed"]);
      experiment.startedAt = now();
      return fake.touch(experiment, ExperimentStatus.IN_PROGRESS);
    },

    reportIssue: async (request, context) => {
      const principal = fake.record("ReportIssue", request, context);
      const experiment = assigned(principal, request.experimentId);
      fake.requireStatus(experiment, ["claimed", "in_progress"]);
      const issue = create(OperatorIssueSchema, {
        id: loop.nextId("iss"),
        description: request.description,
        severity: request.severity,
        reportedAt: now(),
      });
      experiment.issues.push(issue);
      return { ...fake.touch(experiment), issue: clone(OperatorIssueSchema, issue) };
    },

    submitResults: async (request, context) => {
      const principal = fake.record("SubmitResults", request, context);
      const experiment = assigned(principal, request.experimentId);
      fake.requireStatus(experiment, ["claimed", "in_progress"]);
      return storeResults(experiment, JSON.parse(request.resultsJson) as Record<string, any>);
    },

    uploadResults: async (requests, context) => {
      // The caller and state first, as the service checks them before any file arrives.
      const iterator = requests[Symbol.asyncIterator]();
      const first = await iterator.next();
      const experimentId =
        first.done || first.value.part.case !== "experimentId" ? "" : first.value.part.value;
      const files: Array<{ field: string; base64: string }> = [];
      let fieldsJson = "";
      let messages = 1;
      let largestPiece = 0;
      const principal = context.values.get(kPrincipal);
      if (principal) assigned(principal, experimentId);
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        messages += 1;
        const { part } = next.value;
        if (part.case === "fileField") files.push({ field: part.value, base64: "" });
        else if (part.case === "fileBase64") {
          files.at(-1)!.base64 += part.value;
          largestPiece = Math.max(largestPiece, part.value.length);
        } else if (part.case === "fieldsJson") fieldsJson = part.value;
      }
      fake.record("UploadResults", { experimentId, files, fieldsJson, messages, largestPiece }, context);
      const experiment = assigned(principal!, experimentId);
      fake.requireStatus(experiment, ["claimed", "in_progress"]);
      const body = JSON.parse(fieldsJson) as Record<string, any>;
      for (const file of files) {
        const path = file.field.split(/[.[\]]+/).filter(Boolean);
        let holder: any = body;
        for (const segment of path.slice(0, -1)) holder = holder[segment];
        holder[path.at(-1)!] = file.base64;
      }
      return storeResults(experiment, body);
    },

    getResults: async (request, context) => {
      const principal = fake.record("GetResults", request, context);
      const experiment = fake.visible(principal, request.experimentId);
      fake.requireStatus(experiment, ["pending_approval", "completed", "disputed", "resolved"]);
      const { raw_data_files: files, ...record } = loop.results.get(experiment.id)!;
      const signed = (files as Array<{ name: string; format: string; file_id: string }>).map((file) => ({
        name: file.name,
        format: file.format,
        url: signedUrl(file.file_id),
        checksum_sha256: loop.files.get(file.file_id)!.checksumSha256,
      }));
      return {
        resultsJson: JSON.stringify({
          ...record,
          status: "pending_approval",
          raw_data_files: signed,
        }),
        results: loop.typedResults,
        urlsExpireAt: timestampFromDate(new Date(clock.now().getTime() + URL_TTL_SECONDS * 1000)),
      };
    },

    getResultFile: async (request, context) => {
      const principal = fake.record("GetResultFile", request, context);
      if (principal.role !== "system") throw fail(new ForbiddenError("the gateway fetches files"));
      if (request.signature !== ResultsLoopState.signature(request.fileId, request.expires))
        throw fail(new ForbiddenError("the link is not valid"));
      if (request.expires < nowSeconds()) throw fail(new ForbiddenError("the link has expired"));
      const file = loop.files.get(request.fileId);
      if (!file) throw fail(new NotFoundError("file", request.fileId));
      return {
        content: file.content,
        name: file.name,
        contentType: file.contentType,
        checksumSha256: file.checksumSha256,
      };
    },

    approveResults: async (request, context) => {
      const principal = fake.record("ApproveResults", request, context);
      const experiment = requesters(principal, request.experimentId);
      fake.requireStatus(experiment, ["pending_approval"]);
      experiment.approval = create(ApprovalSchema, {
        rating: request.rating,
        feedback: request.feedback,
        approvedAt: now(),
      });
      experiment.completedAt = now();
      return { ...fake.touch(experiment, ExperimentStatus.COMPLETED), paymentReleased: true };
    },

    disputeResults: async (request, context) => {
      const principal = fake.record("DisputeResults", request, context);
      const experiment = requesters(principal, request.experimentId);
      const raisedFrom = experiment.status === ExperimentStatus.COMPLETED ? "completed" : "pending_approval";
      fake.requireStatus(experiment, ["pending_approval", "completed"]);
      const raised = create(DisputeSchema, {
        id: loop.nextId("dsp"),
        experimentId: experiment.id,
        reason: request.reason,
        description: request.description,
        evidenceUrls: request.evidenceUrls,
        status: "open",
        raisedFrom,
        createdAt: now(),
        requesterAccountId: experiment.requesterAccountId,
        operatorId: experiment.operator?.operatorId ?? "",
      });
      loop.disputes.set(raised.id, raised);
      experiment.dispute = raised;
      return { ...fake.touch(experiment, ExperimentStatus.DISPUTED), dispute: clone(DisputeSchema, raised) };
    },

    listDisputes: async (request, context) => {
      const principal = fake.record("ListDisputes", request, context);
      staffOnly(principal);
      const matching = [...loop.disputes.values()].filter(
        (d) => !request.status || d.status === request.status,
      );
      const start = request.cursor ? Number(request.cursor.replace("d", "")) : 0;
      const size = request.limit || 20;
      const hasMore = start + size < matching.length;
      const hasTotal = request.includeTotal || (start === 0 && !hasMore);
      return {
        disputes: matching.slice(start, start + size).map((d) => clone(DisputeSchema, d)),
        total: hasTotal ? BigInt(matching.length) : 0n,
        hasTotal,
        nextCursor: hasMore ? `d${start + size}` : "",
        hasMore,
      };
    },

    getDispute: async (request, context) => {
      const principal = fake.record("GetDispute", request, context);
      staffOnly(principal);
      const found = dispute(request.disputeId);
      const experiment = fake.experiments.get(found.experimentId)!;
      const results = loop.results.get(experiment.id);
      return {
        dispute: clone(DisputeSchema, found),
        experiment: outgoing(experiment),
        resultsJson: results ? JSON.stringify(results) : "",
        evaluationJson: results ? loop.evaluationJson : "",
        results: results && loop.typedResults,
        evaluation: results && loop.typedEvaluation,
        ...(results && {
          urlsExpireAt: timestampFromDate(new Date(clock.now().getTime() + URL_TTL_SECONDS * 1000)),
        }),
      };
    },

    resolveDispute: async (request, context) => {
      const principal = fake.record("ResolveDispute", request, context);
      staffOnly(principal);
      const found = dispute(request.disputeId);
      if (found.status !== "open")
        throw fail(new InvalidStateError("the dispute is resolved", found.status, ["open"]));
      const experiment = fake.experiments.get(found.experimentId)!;
      const stake = experiment.holdAmountCents;
      const [toRequester, toOperator] =
        request.outcome === "split"
          ? [request.requesterAmountCents, request.operatorAmountCents]
          : request.outcome === "requester"
            ? [stake, 0n]
            : [0n, stake];
      if (toRequester + toOperator !== stake)
        throw fail(
          new ValidationError("the split must add up to the amount at stake", [
            {
              field: "operator_amount_cents",
              code: "invalid_value",
              message: `must add up to ${stake} cents`,
            },
          ]),
        );
      Object.assign(found, {
        status: "resolved",
        outcome: request.outcome,
        requesterAmountCents: toRequester,
        operatorAmountCents: toOperator,
        resolutionNote: request.note,
        resolvedBy: principal.accountId,
        resolvedAt: now(),
      });
      experiment.dispute = clone(DisputeSchema, found);
      return { dispute: clone(DisputeSchema, found), ...fake.touch(experiment, ExperimentStatus.RESOLVED) };
    },
  };
}
