/**
 * Defence in depth behind the gateway: a request message carrying a string PostgreSQL
 * refuses (NUL, a lone surrogate) anywhere (a field, a list item, a map key or value, at
 * any nesting) is refused with InvalidArgument naming the field's path, before the handler
 * runs. Other callers than the gateway reach services too.
 */
import { type DescMessage, ScalarType } from "@bufbuild/protobuf";
import type { Interceptor } from "@connectrpc/connect";
import { type FieldError, ValidationError } from "./errors.js";
import { unsafeTextFieldError, unsafeTextReason } from "./json-safety.js";

const MAX_REPORTED = 20;

function join(path: string, name: string | number): string {
  return path === "" ? String(name) : `${path}.${name}`;
}

/**
 * Field errors for every string in `message` (of type `desc`) that PostgreSQL would refuse,
 * named by proto field names ("items.2.title", a map key as "metadata.<key>").
 */
export function unsafeTextInMessage(desc: DescMessage, message: unknown): FieldError[] {
  const errors: FieldError[] = [];
  // An explicit stack: messages can nest (and recurse) as deep as a caller makes them.
  const pending: Array<{ desc: DescMessage; message: Record<string, unknown>; path: string }> = [
    { desc, message: message as Record<string, unknown>, path: "" },
  ];
  const check = (value: unknown, path: string) => {
    if (typeof value !== "string") return;
    const reason = unsafeTextReason(value);
    if (reason) errors.push(unsafeTextFieldError(path, reason));
  };
  while (pending.length > 0 && errors.length < MAX_REPORTED) {
    const current = pending.pop()!;
    for (const field of current.desc.fields) {
      let value: unknown;
      if (field.oneof) {
        const oneof = current.message[field.oneof.localName] as
          { case?: string; value?: unknown } | undefined;
        if (oneof?.case !== field.localName) continue;
        value = oneof.value;
      } else value = current.message[field.localName];
      if (value === undefined || value === null) continue;
      const path = join(current.path, field.name);
      switch (field.fieldKind) {
        case "scalar":
          if (field.scalar === ScalarType.STRING) check(value, path);
          break;
        case "message":
          pending.push({ desc: field.message, message: value as Record<string, unknown>, path });
          break;
        case "list":
          (value as unknown[]).forEach((item, i) => {
            if (field.listKind === "scalar" && field.scalar === ScalarType.STRING) check(item, join(path, i));
            else if (field.listKind === "message")
              pending.push({
                desc: field.message,
                message: item as Record<string, unknown>,
                path: join(path, i),
              });
          });
          break;
        case "map":
          for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
            const reason = field.mapKey === ScalarType.STRING ? unsafeTextReason(key) : undefined;
            if (reason) {
              errors.push(unsafeTextFieldError(join(path, JSON.stringify(key)), reason));
              continue;
            }
            if (field.mapKind === "scalar" && field.scalar === ScalarType.STRING)
              check(item, join(path, key));
            else if (field.mapKind === "message")
              pending.push({
                desc: field.message,
                message: item as Record<string, unknown>,
                path: join(path, key),
              });
          }
          break;
        default:
          break;
      }
    }
  }
  return errors.slice(0, MAX_REPORTED);
}

/**
 * Server: refuses a unary request whose message carries text PostgreSQL refuses with a
 * ValidationError, which errorInterceptor (outside this one) sends as InvalidArgument with
 * ErrorDetail validation_failed; the gateway answers 422 naming the field.
 */
export function safeTextInterceptor(): Interceptor {
  return (next) => async (req) => {
    if (!req.stream) {
      const errors = unsafeTextInMessage(req.method.input, req.message);
      if (errors.length > 0)
        throw new ValidationError("the request contains text that cannot be stored", errors);
    }
    return next(req);
  };
}
