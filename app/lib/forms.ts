import type { z } from "zod";
import type { ErrorCode, FieldErrors } from "./errors";

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

/** What a form sent as text, by field name (the first value of each). */
export type FormValues = Record<string, string>;

/**
 * What a page's action answers when a form is sent: one shape for every form of the site
 * (`answerForm`, app/infra/http/form-action.server.ts), shown with `<FormNotice>` and `<Field>`.
 */
export interface FormResult<Intent extends string = string, Values = FormValues> {
  /** Whether what was asked for was done. */
  ok: boolean;
  /** Which of the page's forms was sent (the first word of its `intent`); "" on a page with one form. */
  intent: Intent | "";
  /** For the person who sent it: what was done, or why not. */
  message: string;
  /** A refusal's message for each field it names, beside the field. */
  fields?: FieldErrors;
  /** After a refusal, what the form shows again: what was typed (never a password), or the page's own. */
  values?: Values;
  /** A refusal's kind: the AppError's code. */
  code?: ErrorCode;
  /** The field to put the keyboard's focus on when the form is drawn again. */
  focus?: string;
  /** What was made, for a link to it (a Gift Aid claim). */
  id?: string;
}
