/**
 * experiment_views: a service's read model of the experiments (hypotheses and cloud-labs keep
 * one), fed by every experiments event, each of which carries the experiment after its change.
 * What their one-call routes read instead of an experiment the gateway relayed (D325, D328): who
 * requested it, its status, title, type and request. A row is replaced only by a newer version,
 * so a redelivered or late event never rolls an experiment back, and the upsert is consumed
 * without inbox or transaction (D329). A service creates the table in its own migrations.
 */
import type { Message } from "@bufbuild/protobuf";
import { type EventSpec, events, openedInSameChange, streamFor } from "@petri/contracts";
import type { Experiment, ExperimentSubmitted } from "@petri/contracts/experiments";
import { EXPERIMENT_STATUS_NAME_BY_VALUE } from "@petri/contracts/vocabulary";
import { type ReadModelArrivals, type ReadModelWait, isId, readSettled } from "@petri/service-kit";
import { FixedQuery } from "@petri/db";
import type { ColumnType, Kysely, Selectable } from "kysely";
import { type EventHandler, type Subscription, on } from "./event-handlers.js";

export interface ExperimentViewsTable {
  id: string;
  requester_account_id: string;
  status: string;
  title: string;
  experiment_type: string;
  request_json: string;
  version: ColumnType<string, bigint | number | string, bigint | number | string>;
}

export interface ExperimentViewTables {
  experiment_views: ExperimentViewsTable;
}

export interface ExperimentView {
  id: string;
  requesterAccountId: string;
  /** The public status name, e.g. "draft", "open". */
  status: string;
  title: string;
  experimentType: string;
  /** The stored request (every default applied), as JSON text. */
  requestJson: string;
  version: number;
}

/** The view of `experiment`; undefined for a message without an id or a known status. */
export function experimentViewOf(experiment: Experiment | undefined): ExperimentView | undefined {
  if (!experiment || experiment.id === "") return undefined;
  const status = EXPERIMENT_STATUS_NAME_BY_VALUE.get(experiment.status);
  if (!status) return undefined;
  return {
    id: experiment.id,
    requesterAccountId: experiment.requesterAccountId,
    status,
    title: experiment.title,
    experimentType: experiment.experimentType,
    requestJson: experiment.requestJson,
    version: Number(experiment.version),
  };
}

/** Takes the view unless the row holds the same or a newer version. */
const upsertView = new FixedQuery<
  ExperimentViewTables,
  Omit<ExperimentViewsTable, "version"> & { version: number },
  never
>(
  (db, value) =>
    db
      .insertInto("experiment_views")
      .values({
        id: value("id"),
        requester_account_id: value("requester_account_id"),
        status: value("status"),
        title: value("title"),
        experiment_type: value("experiment_type"),
        request_json: value("request_json"),
        version: value("version"),
      })
      .onConflict((oc) =>
        oc
          .column("id")
          .doUpdateSet({
            requester_account_id: (eb) => eb.ref("excluded.requester_account_id"),
            status: (eb) => eb.ref("excluded.status"),
            title: (eb) => eb.ref("excluded.title"),
            experiment_type: (eb) => eb.ref("excluded.experiment_type"),
            request_json: (eb) => eb.ref("excluded.request_json"),
            version: (eb) => eb.ref("excluded.version"),
          })
          .where("experiment_views.version", "<", (eb) => eb.ref("excluded.version")),
      ),
  { prepared: true },
);

const selectView = new FixedQuery<ExperimentViewTables, { id: string }, ExperimentViewRow>(
  (db, value) => db.selectFrom("experiment_views").selectAll().where("id", "=", value("id")),
  { prepared: true },
);

type ExperimentViewRow = Selectable<ExperimentViewsTable>;

/** Takes `view` unless the row holds the same or a newer version. */
export async function upsertExperimentView(database: Kysely<any>, view: ExperimentView): Promise<void> {
  await upsertView.execute(database as Kysely<ExperimentViewTables>, {
    id: view.id,
    requester_account_id: view.requesterAccountId,
    status: view.status,
    title: view.title,
    experiment_type: view.experimentType,
    request_json: view.requestJson,
    version: view.version,
  });
}

export async function findExperimentView(
  database: Kysely<any>,
  experimentId: string,
): Promise<ExperimentView | undefined> {
  const row = await selectView.executeTakeFirst(database as Kysely<ExperimentViewTables>, {
    id: experimentId,
  });
  if (!row) return undefined;
  return {
    id: row.id,
    requesterAccountId: row.requester_account_id,
    status: row.status,
    title: row.title,
    experimentType: row.experiment_type,
    requestJson: row.request_json,
    version: Number(row.version),
  };
}

/**
 * The subscription that keeps experiment_views: every experiments event, each one's upsert
 * announced to requests waiting for that experiment. Give it a durable consumer of its own:
 * created, it replays the stream's history, so experiments from before it are known too.
 */
export function experimentViewSubscription(arrivals: ReadModelArrivals): Subscription {
  const specs = Object.values(events.experiments) as EventSpec[];
  const handlers: Record<string, EventHandler> = Object.assign(
    {},
    ...specs.map((spec) =>
      on(
        spec,
        async ({ trx, payload, afterCommit }) => {
          const experiment = (payload as { experiment?: Experiment }).experiment;
          const view = experimentViewOf(experiment);
          if (!view) return;
          await upsertExperimentView(trx, view);
          afterCommit(() => arrivals.announce(view.id));
        },
        {
          idempotent: true,
          // The Opened of the same change carries the same experiment: one upsert, not two.
          ...(spec === events.experiments.experimentSubmitted && {
            appliesTo: (payload: Message) => !openedInSameChange(payload as ExperimentSubmitted),
          }),
        },
      ),
    ),
  );
  return { stream: streamFor("experiments"), filterSubject: "petri.experiments.>", handlers };
}

/**
 * The caller's view of the experiment, waiting (bounded, D325) while it is unknown or still the
 * caller's draft: its event, or the one that submits it, may not have been applied yet.
 * Another account's experiment is answered at once (a requester never changes); text that is
 * no experiment id can never arrive.
 */
export function settledExperimentView(
  deps: { db: Kysely<any>; arrivals: ReadModelArrivals; wait: ReadModelWait },
  callerAccountId: string,
  experimentId: string,
): Promise<ExperimentView | undefined> {
  if (!isId("exp", experimentId)) return Promise.resolve(undefined);
  return readSettled({
    key: experimentId,
    read: () => findExperimentView(deps.db, experimentId),
    settled: (view) =>
      view !== undefined && (view.requesterAccountId !== callerAccountId || view.status !== "draft"),
    arrivals: deps.arrivals,
    wait: deps.wait,
  });
}
