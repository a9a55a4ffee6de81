import type { z } from "zod";
import type { FieldErrors } from "./errors";

// The form toolkit (docs/decisions/010-one-way-to-do-each-thing.md): every form checks its fields
// with one zod schema, in the browser and again on the server, and shows one message per field.

/** A zod failure as one message per field (the first), keyed by the field's path ("testimonial.name"). */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.join(".") || "body";
    const message = issue.code === "unrecognized_keys" ? `unknown field(s): ${issue.keys.join(", ")}` : issue.message;
    errors[field] ??= message;
  }
  return errors;
}

export type Validation<T, F extends string = string> =
  { ok: true; data: T } | { ok: false; errors: Partial<Record<F, string>> };

/** Checks input against a form's schema: the data, or one message per field. */
export function validate<S extends z.ZodType, F extends string = string>(
  schema: S,
  input: unknown,
): Validation<z.output<S>, F> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, errors: fieldErrors(result.error) as Partial<Record<F, string>> };
}
