import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import {
  type AcquireQuotaRequest,
  AcquireQuotaResponseSchema,
  type AuthenticateApiKeyRequest,
  type ChangePasswordRequest,
  ChangePasswordResponseSchema,
  CredentialsEpochSchema,
  ListRevocationsResponseSchema,
  type RevokeAccessTokenRequest,
  RevokeAccessTokenResponseSchema,
  RevokedAccessTokenSchema,
  AuthenticateApiKeyResponseSchema,
  AuthenticatedPrincipalSchema,
  type CreateApiKeyRequest,
  CreateApiKeyResponseSchema,
  type GetAccountRequest,
  GetAccountResponseSchema,
  IdentityService,
  type IssueTokenRequest,
  IssueTokenResponseSchema,
  type ListApiKeysRequest,
  ListApiKeysResponseSchema,
  ListSigningKeysResponseSchema,
  QuotaPolicy,
  type RegisterAccountRequest,
  RegisterAccountResponseSchema,
  type RevokeApiKeyRequest,
  RevokeApiKeyResponseSchema,
  Role,
  RotateSigningKeyResponseSchema,
  Tier,
  type UpdateAccountAccessRequest,
  UpdateAccountAccessResponseSchema,
} from "@petri/contracts/identity";
import { type FieldError, ValidationError, kPrincipal } from "@petri/service-kit";
import { QUOTA_POLICY_NAME_BY_VALUE } from "@petri/contracts/vocabulary";
import type { makeAcquireQuota } from "../app/acquire-quota.js";
import type { makeAuthenticateApiKey } from "../app/authenticate-api-key.js";
import type { makeChangePassword } from "../app/change-password.js";
import type { makeCreateApiKey } from "../app/create-api-key.js";
import type { makeGetAccount } from "../app/get-account.js";
import type { makeIssueToken } from "../app/issue-token.js";
import type { makeListApiKeys } from "../app/list-api-keys.js";
import type { makeListRevocations } from "../app/list-revocations.js";
import type { makeListSigningKeys } from "../app/list-signing-keys.js";
import type { makeRegisterAccount } from "../app/register-account.js";
import type { RevocationFeed } from "../app/revocation-feed.js";
import type { makeRevokeAccessToken } from "../app/revoke-access-token.js";
import type { makeRevokeApiKey } from "../app/revoke-api-key.js";
import type { makeRotateSigningKey } from "../app/rotate-signing-key.js";
import type { makeUpdateAccountAccess } from "../app/update-account-access.js";
import { type Audience, authorize } from "../domain/authorization.js";
import {
  accountMessage,
  roleFromMessage,
  roleMessage,
  tierFromMessage,
  tierMessage,
} from "../contract/account-message.js";
import { apiKeyMessage, quotaWindowMessage, signingKeyMessage } from "../contract/credential-messages.js";

export interface IdentityUseCases {
  registerAccount: ReturnType<typeof makeRegisterAccount>;
  issueToken: ReturnType<typeof makeIssueToken>;
  getAccount: ReturnType<typeof makeGetAccount>;
  createApiKey: ReturnType<typeof makeCreateApiKey>;
  listApiKeys: ReturnType<typeof makeListApiKeys>;
  revokeApiKey: ReturnType<typeof makeRevokeApiKey>;
  updateAccountAccess: ReturnType<typeof makeUpdateAccountAccess>;
  authenticateApiKey: ReturnType<typeof makeAuthenticateApiKey>;
  listSigningKeys: ReturnType<typeof makeListSigningKeys>;
  rotateSigningKey: ReturnType<typeof makeRotateSigningKey>;
  acquireQuota: ReturnType<typeof makeAcquireQuota>;
  listRevocations: ReturnType<typeof makeListRevocations>;
  revokeAccessToken: ReturnType<typeof makeRevokeAccessToken>;
  changePassword: ReturnType<typeof makeChangePassword>;
  watchRevocations: RevocationFeed["watch"];
}

/**
 * Who may call each procedure. Each handler checks its own audience as its first line; this
 * table derives the public procedure list (service.ts) and is checked against the handlers
 * by identity-rpc.test.ts.
 */
export const IDENTITY_AUDIENCES = {
  registerAccount: "public",
  issueToken: "public",
  getAccount: "account",
  createApiKey: "account",
  listApiKeys: "account",
  revokeApiKey: "account",
  updateAccountAccess: "staff",
  rotateSigningKey: "staff",
  authenticateApiKey: "system",
  listSigningKeys: "system",
  acquireQuota: "system",
  listRevocations: "system",
  revokeAccessToken: "system",
  changePassword: "account",
  watchRevocations: "system",
} as const satisfies Record<keyof IdentityUseCases, Audience>;

/** "petri.identity.v1.IdentityService/RegisterAccount", ...: callable without a principal. */
export const IDENTITY_PUBLIC_PROCEDURES: readonly string[] = Object.values(IdentityService.method)
  .filter((method) => IDENTITY_AUDIENCES[method.localName as keyof typeof IDENTITY_AUDIENCES] === "public")
  .map((method) => `${IdentityService.typeName}/${method.name}`);

/** An enum value that is neither UNSPECIFIED nor known: a validation error, never "leave as is". */
function unknownEnum(field: string): FieldError {
  return { field, code: "invalid_value", message: `${field} is not a known value` };
}

/**
 * Proto <-> domain mapping and the authorization check of every procedure (the audience is
 * the first line of each handler); the use cases hold the behaviour.
 */
export class IdentityRpc implements ServiceImpl<typeof IdentityService> {
  constructor(private readonly useCases: IdentityUseCases) {}

  async registerAccount(request: RegisterAccountRequest, ctx: HandlerContext) {
    authorize(ctx.values.get(kPrincipal), "public");
    const registered = await this.useCases.registerAccount({
      email: request.email,
      password: request.password,
      name: request.name,
      organization: request.organization,
    });
    return create(RegisterAccountResponseSchema, {
      account: accountMessage(registered.account),
      apiKey: apiKeyMessage(registered.apiKey),
      apiKeySecret: registered.apiKeySecret,
    });
  }

  async issueToken(request: IssueTokenRequest, ctx: HandlerContext) {
    authorize(ctx.values.get(kPrincipal), "public");
    const token = await this.useCases.issueToken({ email: request.email, password: request.password });
    return create(IssueTokenResponseSchema, {
      accessToken: token.accessToken,
      expiresIn: BigInt(token.expiresIn),
      expiresAt: timestampFromDate(token.expiresAt),
    });
  }

  async getAccount(request: GetAccountRequest, ctx: HandlerContext) {
    const caller = authorize(ctx.values.get(kPrincipal), "account");
    const account = await this.useCases.getAccount(caller, request.accountId);
    return create(GetAccountResponseSchema, { account: accountMessage(account) });
  }

  async createApiKey(request: CreateApiKeyRequest, ctx: HandlerContext) {
    const caller = authorize(ctx.values.get(kPrincipal), "account");
    const created = await this.useCases.createApiKey(caller.accountId, { name: request.name });
    return create(CreateApiKeyResponseSchema, {
      apiKey: apiKeyMessage(created.apiKey),
      secret: created.secret,
    });
  }

  async listApiKeys(request: ListApiKeysRequest, ctx: HandlerContext) {
    const caller = authorize(ctx.values.get(kPrincipal), "account");
    const page = await this.useCases.listApiKeys(caller.accountId, {
      limit: request.limit,
      offset: request.offset,
      includeRevoked: request.includeRevoked,
    });
    return create(ListApiKeysResponseSchema, {
      apiKeys: page.apiKeys.map(apiKeyMessage),
      total: BigInt(page.total),
    });
  }

  async revokeApiKey(request: RevokeApiKeyRequest, ctx: HandlerContext) {
    const caller = authorize(ctx.values.get(kPrincipal), "account");
    const apiKey = await this.useCases.revokeApiKey(caller.accountId, request.apiKeyId);
    return create(RevokeApiKeyResponseSchema, { apiKey: apiKeyMessage(apiKey) });
  }

  async updateAccountAccess(request: UpdateAccountAccessRequest, ctx: HandlerContext) {
    authorize(ctx.values.get(kPrincipal), "staff");
    const role = roleFromMessage(request.role);
    const tier = tierFromMessage(request.tier);
    const problems: FieldError[] = [];
    if (request.role !== Role.UNSPECIFIED && !role) problems.push(unknownEnum("role"));
    if (request.tier !== Tier.UNSPECIFIED && !tier) problems.push(unknownEnum("tier"));
    if (problems.length > 0) throw new ValidationError("the access change is invalid", problems);
    const limits = request.rateLimits;
    const account = await this.useCases.updateAccountAccess({
      accountId: request.accountId,
      role,
      tier,
      rateLimits: limits ? { perMinute: Number(limits.perMinute), perDay: Number(limits.perDay) } : undefined,
    });
    return create(UpdateAccountAccessResponseSchema, { account: accountMessage(account) });
  }

  async authenticateApiKey(request: AuthenticateApiKeyRequest, ctx: HandlerContext) {
    authorize(ctx.values.get(kPrincipal), "system");
    const found = await this.useCases.authenticateApiKey(request.secret);
    return create(AuthenticateApiKeyResponseSchema, {
      principal: create(AuthenticatedPrincipalSchema, {
        accountId: found.accountId,
        role: roleMessage(found.role),
        tier: tierMessage(found.tier),
        // Identity does not know lab memberships; the marketplace owns operators.
        operatorId: "",
      }),
      apiKeyId: found.apiKeyId,
      credentialsEpoch: BigInt(found.credentialsEpoch),
    });
  }

  async listSigningKeys(_request: unknown, ctx: HandlerContext) {
    authorize(ctx.values.get(kPrincipal), "system");
    const set = await this.useCases.listSigningKeys();
    return create(ListSigningKeysResponseSchema, {
      keys: set.keys.map(signingKeyMessage),
      issuer: set.issuer,
      audience: set.audience,
    });
  }

  async rotateSigningKey(_request: unknown, ctx: HandlerContext) {
    authorize(ctx.values.get(kPrincipal), "staff");
    const rotation = await this.useCases.rotateSigningKey();
    return create(RotateSigningKeyResponseSchema, {
      active: signingKeyMessage(rotation.active),
      retiring: rotation.retiring.map(signingKeyMessage),
    });
  }

  async acquireQuota(request: AcquireQuotaRequest, ctx: HandlerContext) {
    authorize(ctx.values.get(kPrincipal), "system");
    const problems: FieldError[] = [];
    const policy = QUOTA_POLICY_NAME_BY_VALUE.get(request.policy);
    if (request.policy !== QuotaPolicy.UNSPECIFIED && !policy) problems.push(unknownEnum("policy"));
    const tier = tierFromMessage(request.tier);
    if (request.tier !== Tier.UNSPECIFIED && !tier) problems.push(unknownEnum("tier"));
    if (problems.length > 0) throw new ValidationError("the quota draw is invalid", problems);
    const draw = await this.useCases.acquireQuota({
      policy,
      subject: request.subject,
      tier,
      requested: request.requested,
    });
    return create(AcquireQuotaResponseSchema, {
      granted: draw.granted,
      binding: quotaWindowMessage(draw.binding),
      windows: draw.windows.map(quotaWindowMessage),
    });
  }

  async listRevocations(_request: unknown, ctx: HandlerContext) {
    authorize(ctx.values.get(kPrincipal), "system");
    const snapshot = await this.useCases.listRevocations();
    return create(ListRevocationsResponseSchema, {
      epochs: snapshot.epochs.map((e) =>
        create(CredentialsEpochSchema, {
          accountId: e.accountId,
          epoch: BigInt(e.epoch),
          changedAt: timestampFromDate(e.changedAt),
        }),
      ),
      tokens: snapshot.tokens.map((t) =>
        create(RevokedAccessTokenSchema, {
          accountId: t.accountId,
          jti: t.jti,
          expiresAt: timestampFromDate(t.expiresAt),
        }),
      ),
      accessTokenTtlSeconds: BigInt(snapshot.accessTokenTtlSeconds),
    });
  }

  async revokeAccessToken(request: RevokeAccessTokenRequest, ctx: HandlerContext) {
    authorize(ctx.values.get(kPrincipal), "system");
    const token = request.token;
    if (!token?.expiresAt)
      throw new ValidationError("the token to revoke is missing", [
        { field: "token", code: "missing_required", message: "token with expires_at is required" },
      ]);
    await this.useCases.revokeAccessToken({
      accountId: token.accountId,
      jti: token.jti,
      expiresAt: timestampDate(token.expiresAt),
    });
    return create(RevokeAccessTokenResponseSchema, {});
  }

  async changePassword(request: ChangePasswordRequest, ctx: HandlerContext) {
    const caller = authorize(ctx.values.get(kPrincipal), "account");
    await this.useCases.changePassword({
      accountId: caller.accountId,
      currentPassword: request.currentPassword,
      newPassword: request.newPassword,
    });
    return create(ChangePasswordResponseSchema, {});
  }

  async *watchRevocations(_request: unknown, ctx: HandlerContext) {
    authorize(ctx.values.get(kPrincipal), "system");
    yield* this.useCases.watchRevocations(ctx.signal);
  }
}
