import type { FieldError } from "@petri/service-kit";

/** Bounds checked before any hashing, so an oversized password cannot cost CPU. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 200;
export const EMAIL_MAX_LENGTH = 254;

export interface RegistrationInput {
  email: string;
  password: string;
  name: string;
  organization: string;
}

// Deliberately simple: one "@", a dot in the domain, no spaces. Deliverability is proven
// by mail, not by a regular expression.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function validateRegistration(input: RegistrationInput): FieldError[] {
  const problems: FieldError[] = [];
  const email = normalizeEmail(input.email);
  if (email === "") problems.push({ field: "email", code: "missing_required", message: "email is required" });
  else if (email.length > EMAIL_MAX_LENGTH || !EMAIL_SHAPE.test(email))
    problems.push({ field: "email", code: "invalid_value", message: "email is not a valid e-mail address" });

  const passwordLength = [...input.password].length;
  if (passwordLength === 0)
    problems.push({ field: "password", code: "missing_required", message: "password is required" });
  else if (passwordLength < PASSWORD_MIN_LENGTH || passwordLength > PASSWORD_MAX_LENGTH)
    problems.push({
      field: "password",
      code: "invalid_value",
      message: `password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
    });

  const name = input.name.trim();
  if (name === "") problems.push({ field: "name", code: "missing_required", message: "name is required" });
  else if (name.length > NAME_MAX_LENGTH)
    problems.push({
      field: "name",
      code: "invalid_value",
      message: `name is longer than ${NAME_MAX_LENGTH} characters`,
    });

  if (input.organization.trim().length > NAME_MAX_LENGTH)
    problems.push({
      field: "organization",
      code: "invalid_value",
      message: `organization is longer than ${NAME_MAX_LENGTH} characters`,
    });
  return problems;
}
