import { IdentityService } from "@petri/contracts/identity";
import { type ServiceDeps, createServiceRuntime } from "@petri/events";
import type { HostedService } from "@petri/service-kit";
import { makeRegisterAccount } from "./app/register-account.js";
import { identityMigrations } from "./db/migrations/index.js";
import type { IdentityDb } from "./db/schema.js";
import { IdentityRpc } from "./rpc/identity-rpc.js";
import { hashPassword } from "./security/passwords.js";

/** Composition root of the identity service: accounts, credentials and quotas. */
export function createIdentityService(deps: ServiceDeps): HostedService {
  const runtime = createServiceRuntime<IdentityDb>({
    ...deps,
    service: "identity",
    migrations: identityMigrations,
  });
  const rpc = new IdentityRpc({
    registerAccount: makeRegisterAccount({
      db: runtime.db,
      clock: deps.clock,
      hashPassword,
      afterCommit: runtime.afterCommit,
    }),
  });
  return {
    ...runtime.hosted,
    routes: (router) => router.service(IdentityService, rpc),
    // Registration is how a caller gets credentials, so it cannot require them.
    publicProcedures: [`${IdentityService.typeName}/${IdentityService.method.registerAccount.name}`],
  };
}
