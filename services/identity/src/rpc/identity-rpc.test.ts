import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type HandlerContext, createContextValues } from "@connectrpc/connect";
import {
  AcquireQuotaRequestSchema,
  RevokeAccessTokenRequestSchema,
  WatchRevocationsResponseSchema,
  IdentityService,
  QuotaPolicy,
  Role,
  Tier,
  UpdateAccountAccessRequestSchema,
} from "@petri/contracts/identity";
import {
  ForbiddenError,
  type Principal,
  UnauthenticatedError,
  ValidationError,
  kPrincipal,
} from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import {
  IDENTITY_AUDIENCES,
  IDENTITY_PUBLIC_PROCEDURES,
  IdentityRpc,
  type IdentityUseCases,
} from "./identity-rpc.js";

const now = new Date("2026-01-01T00:00:00Z");
const account = {
  id: "usr_1",
  email: "a@example.org",
  name: "A",
  organization: "",
  role: "requester",
  tier: "standard",
  rate_limit_per_minute: null,
  rate_limit_per_day: null,
  created_at: now,
  updated_at: now,
} as const;
const apiKey = {
  id: "key_1",
  account_id: "usr_1",
  name: "default",
  display_prefix: "petri_sk_abc",
  created_at: now,
  revoked_at: null,
  last_used_at: null,
};
const window = { name: "minute", limit: 100, remaining: 99, resetsAt: now } as const;
const signingKey = {
  kid: "k",
  publicJwk: { kty: "OKP" },
  state: "active",
  createdAt: now,
  retiresAt: null,
} as const;

/** Use cases that answer at once and record that they ran. */
function stubUseCases(calls: string[]): IdentityUseCases {
  const record =
    <T>(name: string, value: T) =>
    async () => {
      calls.push(name);
      return value;
    };
  return {
    registerAccount: record("registerAccount", { account, apiKey, apiKeySecret: "s" }),
    issueToken: record("issueToken", { accessToken: "t", expiresIn: 3600, expiresAt: now, kid: "k" }),
    getAccount: record("getAccount", account),
    createApiKey: record("createApiKey", { apiKey, secret: "s" }),
    listApiKeys: record("listApiKeys", { apiKeys: [apiKey], total: 1, limit: 20, offset: 0 }),
    revokeApiKey: record("revokeApiKey", apiKey),
    updateAccountAccess: record("updateAccountAccess", account),
    authenticateApiKey: record("authenticateApiKey", {
      accountId: "usr_1",
      role: "requester",
      tier: "standard",
      apiKeyId: "key_1",
      credentialsEpoch: 0,
    }),
    listSigningKeys: record("listSigningKeys", { keys: [signingKey], issuer: "i", audience: "a" }),
    rotateSigningKey: record("rotateSigningKey", { active: signingKey, retiring: [] }),
    acquireQuota: record("acquireQuota", { granted: 1, binding: window, windows: [window] }),
    listRevocations: record("listRevocations", { epochs: [], tokens: [], accessTokenTtlSeconds: 3600 }),
    revokeAccessToken: record("revokeAccessToken", undefined),
    changePassword: record("changePassword", undefined),
    watchRevocations: () => {
      calls.push("watchRevocations");
      return (async function* () {
        yield create(WatchRevocationsResponseSchema, {});
      })();
    },
  };
}

function ctx(principal?: Principal): HandlerContext {
  const values = createContextValues();
  if (principal) values.set(kPrincipal, principal);
  return { values } as HandlerContext;
}

const principals: Array<[string, Principal | undefined]> = [
  ["nobody", undefined],
  ["requester", { accountId: "usr_1", role: "requester", tier: "standard" }],
  ["operator", { accountId: "usr_2", role: "operator", tier: "pro", operatorId: "op_1" }],
  ["staff", { accountId: "usr_3", role: "staff", tier: "standard" }],
  ["system", { accountId: "system:gateway", role: "system", tier: "standard" }],
];

const expected: Record<string, readonly string[]> = {
  public: ["nobody", "requester", "operator", "staff", "system"],
  account: ["requester", "operator", "staff"],
  staff: ["staff"],
  system: ["system"],
};

/** A unary answer, or a stream's first message (authorization runs when the stream is read). */
async function firstAnswer(answer: unknown): Promise<unknown> {
  if (answer && typeof answer === "object" && Symbol.asyncIterator in answer) {
    for await (const message of answer as AsyncIterable<unknown>) return message;
    return undefined;
  }
  return answer;
}

const requests: Partial<Record<keyof IdentityUseCases, unknown>> = {
  acquireQuota: create(AcquireQuotaRequestSchema, {
    policy: QuotaPolicy.ACCOUNT,
    subject: "usr_1",
    tier: Tier.STANDARD,
    requested: 1,
  }),
  revokeAccessToken: create(RevokeAccessTokenRequestSchema, {
    token: { accountId: "usr_1", jti: "j", expiresAt: timestampFromDate(now) },
  }),
};

describe("IdentityRpc authorization", () => {
  it("covers every procedure of the contract", () => {
    expect(Object.keys(IDENTITY_AUDIENCES).sort()).toEqual(
      Object.values(IdentityService.method)
        .map((m) => m.localName)
        .sort(),
    );
    expect(IDENTITY_PUBLIC_PROCEDURES).toEqual([
      "petri.identity.v1.IdentityService/RegisterAccount",
      "petri.identity.v1.IdentityService/IssueToken",
    ]);
  });

  for (const [method, audience] of Object.entries(IDENTITY_AUDIENCES) as [keyof IdentityUseCases, string][]) {
    it(`${method} (${audience}) admits exactly ${expected[audience]!.join(", ")}`, async () => {
      for (const [who, principal] of principals) {
        const calls: string[] = [];
        const rpc = new IdentityRpc(stubUseCases(calls)) as unknown as Record<
          string,
          (request: unknown, ctx: HandlerContext) => Promise<unknown>
        >;
        const request = requests[method] ?? create(IdentityService.method[method].input);
        const call = firstAnswer(rpc[method]!.call(rpc, request, ctx(principal)));
        if (expected[audience]!.includes(who)) {
          await expect(call, `${method} as ${who}`).resolves.toBeDefined();
          expect(calls).toEqual([method]);
        } else {
          await expect(call, `${method} as ${who}`).rejects.toThrow(
            principal ? ForbiddenError : UnauthenticatedError,
          );
          expect(calls, `${method} must not run for ${who}`).toEqual([]);
        }
      }
    });
  }
});

describe("IdentityRpc mapping", () => {
  const staff = ctx({ accountId: "usr_3", role: "staff", tier: "standard" });
  const system = ctx({ accountId: "system:gateway", role: "system", tier: "standard" });

  it("passes UNSPECIFIED role and tier as 'leave as is' and rejects unknown enum numbers", async () => {
    let seen: unknown;
    const useCases = stubUseCases([]);
    useCases.updateAccountAccess = async (input) => {
      seen = input;
      return account;
    };
    const rpc = new IdentityRpc(useCases);
    await rpc.updateAccountAccess(
      create(UpdateAccountAccessRequestSchema, { accountId: "usr_1", tier: Tier.PRO }),
      staff,
    );
    expect(seen).toEqual({ accountId: "usr_1", role: undefined, tier: "pro" });
    await expect(
      rpc.updateAccountAccess(
        create(UpdateAccountAccessRequestSchema, { accountId: "usr_1", role: 42 as Role }),
        staff,
      ),
    ).rejects.toThrow(ValidationError);
  });

  it("maps quota policies and reports granted, binding and windows", async () => {
    let seen: unknown;
    const useCases = stubUseCases([]);
    useCases.acquireQuota = async (input) => {
      seen = input;
      return { granted: 3, binding: window, windows: [window] };
    };
    const rpc = new IdentityRpc(useCases);
    const response = await rpc.acquireQuota(
      create(AcquireQuotaRequestSchema, {
        policy: QuotaPolicy.AUTH_FAILURES,
        subject: "10.0.0.1",
        requested: 3,
      }),
      system,
    );
    expect(seen).toEqual({ policy: "auth_failures", subject: "10.0.0.1", tier: undefined, requested: 3 });
    expect(response.granted).toBe(3);
    await rpc.acquireQuota(
      create(AcquireQuotaRequestSchema, {
        policy: QuotaPolicy.CREDENTIAL_FAILURES,
        subject: "digest@10.0.0.1",
        requested: 1,
      }),
      system,
    );
    expect(seen).toMatchObject({ policy: "credential_failures", subject: "digest@10.0.0.1" });
    expect(response.binding?.remaining).toBe(99n);
    await expect(
      rpc.acquireQuota(
        create(AcquireQuotaRequestSchema, { policy: 9 as QuotaPolicy, subject: "x", requested: 1 }),
        system,
      ),
    ).rejects.toThrow(ValidationError);
  });

  it("answers AuthenticateApiKey with the account's role and tier and no operator id", async () => {
    const rpc = new IdentityRpc(stubUseCases([]));
    const response = await rpc.authenticateApiKey({ secret: "x" } as never, system);
    expect(response.principal).toMatchObject({
      accountId: "usr_1",
      role: Role.REQUESTER,
      tier: Tier.STANDARD,
      operatorId: "",
    });
    expect(response.apiKeyId).toBe("key_1");
  });
});
