/**
 * The lab's side of the fake ExperimentsService: claim, start, issues and a submission (JSON
 * or streamed), for the operator-jobs unit tests that need what the real service cannot be
 * made to do (D347). Results, files, approval and disputes are tested on the real services
 * (D354). FakeExperiments mixes these handlers into its router.
 */
import { clone, create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import {
  type Experiment,
  ExperimentAction,
  ExperimentSchema,
  ExperimentStatus,
  type ExperimentsService,
  OperatorAssignmentSchema,
  OperatorIssueSchema,
} from "@petri/contracts/experiments";
import {
  ConflictError,
  type DomainError,
  ForbiddenError,
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

/** What the loop keeps besides the experiments themselves (tests seed it). */
export class ResultsLoopState {
  /** Accounts that act as active labs: account id -> its operator. */
  readonly operators = new Map<string, { operatorId: string; labName: string }>();
  private sequence = 0;

  nextId(prefix: string): string {
    return `${prefix}_${String(++this.sequence).padStart(26, "0")}`;
  }
}

export function resultsLoopHandlers(fake: FakeExperiments): Partial<ServiceImpl<typeof ExperimentsService>> {
  const { loop, clock } = fake;
  const now = () => timestampFromDate(clock.now());
  /** The experiment the calling lab is assigned to (NotFound for anyone else). */
  const assigned = (principal: Principal, id: string): Experiment => {
    const lab = loop.operators.get(principal.accountId);
    const experiment = fake.experiments.get(id);
    if (!experiment || !lab || experiment.operator?.operatorId !== lab.operatorId)
      throw fail(new NotFoundError("experiment", id));
    return experiment;
  };

  /** A submission moves the experiment to pending_approval (its content is not kept). */
  const storeResults = (experiment: Experiment) => {
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
      return storeResults(experiment);
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
      return storeResults(experiment);
    },
  };
}
