/**
 * Every service's migrations are expand-only between releases (D265 in docs/decisions.md). A
 * service is rolled one replica at a time: for a while, replicas of the release
 * before and of the new one run against the schema the new release migrated to. So a
 * migration adds (tables, nullable columns, columns with a default, indexes) and never takes
 * away or narrows what the code of the release before reads or writes; that happens in a
 * later contract step, a release after the code stopped depending on it, declared here with
 * the reason it is safe.
 *
 * A migration that fails this test: make it expand-only (add the new shape beside the old,
 * write both, backfill), or, if the code of the release before no longer touches what it
 * removes, declare it below as a contract step.
 */
import { cloudLabsMigrations } from "@petri/cloud-labs";
import { engineMigrations } from "@petri/engine";
import { experimentsMigrations } from "@petri/experiments";
import { hypothesesMigrations } from "@petri/hypotheses";
import { identityMigrations } from "@petri/identity";
import { marketplaceMigrations } from "@petri/marketplace";
import { notificationsMigrations } from "@petri/notifications";
import { type ContractChange, TestBackend, contractChangesOf } from "@petri/service-testkit";
import { postgresAvailable, requireInfra } from "@petri/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const withPostgres = requireInfra("PostgreSQL", await postgresAvailable());

/** The declared contract steps: each removal, and why no replica of the release before reads it. */
const CONTRACT_STEPS: Record<string, Array<ContractChange & { why: string }>> = {
  identity: [
    {
      migration: "2027_01_10_1100_one_quota_row_per_subject",
      change: "drops table quota_counters",
      why: "before the first release: no deployed code read quota_counters",
    },
  ],
  experiments: [
    {
      migration: "2026_12_10_1000_marketplace_loop",
      change: "drops table operator_capacity",
      why: "before the first release: no deployed code read operator_capacity",
    },
  ],
  marketplace: [],
  hypotheses: [],
  engine: [],
  cloudlabs: [],
  notifications: [],
};

const HISTORIES = {
  identity: identityMigrations,
  experiments: experimentsMigrations,
  marketplace: marketplaceMigrations,
  hypotheses: hypothesesMigrations,
  engine: engineMigrations,
  cloudlabs: cloudLabsMigrations,
  notifications: notificationsMigrations,
};

describe.skipIf(!withPostgres)("every service's migrations, step by step", { timeout: 120_000 }, () => {
  let backend: TestBackend;

  beforeAll(async () => {
    backend = await TestBackend.open("pg", "petri_test_schema_steps");
  });
  afterAll(() => backend?.close());

  it.each(Object.entries(HISTORIES))(
    "%s: only the declared contract steps take anything away",
    async (service, migrations) => {
      const declared = CONTRACT_STEPS[service]!.map(({ migration, change }) => ({ migration, change }));
      expect(await contractChangesOf(backend.database, `${service}_steps`, migrations)).toEqual(declared);
    },
  );
});
