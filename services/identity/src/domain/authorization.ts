/**
 * Who may call what. Authorization is checked here, where the data is, not only in the
 * gateway (docs/architecture.md section 6). Every handler states its audience:
 *
 * - public:  no principal needed (registration, token issuance).
 * - account: an account acting for itself: requester, operator or staff (not "system").
 * - staff:   staff accounts only.
 * - system:  the gateway's own calls (API key lookup, signing keys, quota); no account has it.
 */
import { ROLES } from "@petri/contracts/vocabulary";
import { ForbiddenError, type Principal, UnauthenticatedError } from "@petri/service-kit";

export type Audience = "public" | "account" | "staff" | "system";

const ACCOUNT_ROLES: ReadonlySet<Principal["role"]> = new Set(ROLES);

export function authorize(principal: Principal | undefined, audience: "public"): Principal | undefined;
export function authorize(principal: Principal | undefined, audience: Exclude<Audience, "public">): Principal;
export function authorize(principal: Principal | undefined, audience: Audience): Principal | undefined {
  if (audience === "public") return principal;
  if (!principal) throw new UnauthenticatedError("authentication required");
  switch (audience) {
    case "account":
      if (!ACCOUNT_ROLES.has(principal.role)) throw new ForbiddenError("this operation acts on an account");
      return principal;
    case "staff":
      if (principal.role !== "staff") throw new ForbiddenError("this operation is for staff only");
      return principal;
    case "system":
      if (principal.role !== "system") throw new ForbiddenError("this operation is for the gateway only");
      return principal;
  }
}
