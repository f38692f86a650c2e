import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  type IdentityService,
  type RegisterAccountRequest,
  RegisterAccountResponseSchema,
} from "@petri/contracts/identity";
import type { makeRegisterAccount } from "../app/register-account.js";
import { accountMessage } from "./account-message.js";

export interface IdentityUseCases {
  registerAccount: ReturnType<typeof makeRegisterAccount>;
}

/** Proto <-> domain mapping only; the use cases hold the behaviour. */
export class IdentityRpc implements ServiceImpl<typeof IdentityService> {
  constructor(private readonly useCases: IdentityUseCases) {}

  async registerAccount(request: RegisterAccountRequest) {
    const account = await this.useCases.registerAccount({
      email: request.email,
      password: request.password,
      name: request.name,
      organization: request.organization,
    });
    return create(RegisterAccountResponseSchema, { account: accountMessage(account) });
  }
}
