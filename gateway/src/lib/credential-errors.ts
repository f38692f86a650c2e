/**
 * A credential that did not authenticate. `reason` is for logs only: the caller always gets
 * the same 401 body, so a probe cannot learn which check failed.
 */
export class CredentialRejectedError extends Error {
  constructor(readonly reason: string) {
    super("credential rejected");
    this.name = "CredentialRejectedError";
  }
}
