import { data } from "react-router";
import { AppError } from "~/lib/errors";
import type { FormResult, FormValues } from "~/lib/forms";
import { httpStatus, readFormBody } from "./api.server";
import { bodyLimitFor, bodyLimits, bodyTooLarge } from "./body-limits.server";

// How a page's action answers a form (docs/decisions/061-one-way-to-answer-a-form.md): it reads
// the form within its route's body limit, runs the handler the form's `intent` names, and answers
// every outcome in one shape (`FormResult`, app/lib/forms.ts) with the status its AppError code
// has. A Response (a redirect) goes out as it is; anything else that is thrown goes on to
// `pageWork`, which logs it under a reference.

/** The answer to a post that names no intent the page has. */
export const nothingAskedFor = "Nothing was asked for.";

/**
 * What a handler returns when it is done: a message, and anything the page shows with it. With
 * `ok: false` it refuses and gives the form back as it should be shown again (its `values`), for
 * a form that stored something meanwhile (pictures); any other refusal throws an AppError.
 */
export type FormReply<Values = FormValues> = Omit<FormResult<string, Values>, "ok" | "intent" | "code"> & {
  ok?: boolean;
};

/** The work of one intent, given the form that was sent: a reply, or a Response (a redirect). */
export type FormHandler<Values = FormValues> = (form: FormData) => Promise<FormReply<Values> | Response>;

/** A form's answer, as an action returns it: the result with its status, or the handler's Response. */
export type FormAnswer<Intent extends string, Values = FormValues> =
  Response | ReturnType<typeof data<FormResult<Intent, Values>>>;

/** The text a form sent under `name` (its first value), at most `max` characters; "" when it sent none. */
export function formText(form: FormData, name: string, max = 10_000): string {
  const value = form.get(name);
  return typeof value === "string" ? value.slice(0, max) : "";
}

/** What a form sent as text, to be shown again after a refusal: never a password, nor a file. */
export function typedValues(form: FormData): FormValues {
  const values: FormValues = {};
  for (const [name, value] of form) {
    if (typeof value !== "string" || name in values || /password/i.test(name)) continue;
    values[name] = value;
  }
  return values;
}

/** The form a request carries, read within the limit its route has in `routeBodyLimits`. */
export function readPostedForm(request: Request): Promise<FormData> {
  const limit = bodyLimitFor(new URL(request.url).pathname);
  return readFormBody(request, bodyLimits[limit], () => bodyTooLarge(limit));
}

/**
 * Answers a form sent to a page's action. `handlers` is one handler per intent (the first word of
 * the form's `intent`; the rest, such as the list a button acts on, is the handler's to read), or
 * a single handler for a page with one form, which needs no intent. `source` is the request, or
 * the form when the page has read it already (with its pictures). After a thrown AppError the
 * form is shown again with `values(form)`, by default what was typed.
 */
export async function answerForm<Intent extends string, Values = FormValues>(
  source: Request | FormData,
  handlers: FormHandler<Values> | { [K in Intent]: FormHandler<Values> },
  options: { values?: (form: FormData) => Values } = {},
): Promise<FormAnswer<Intent, Values>> {
  // A form that cannot be read (too large, not a form) is the page's error, not a form's answer.
  const form = source instanceof FormData ? source : await readPostedForm(source);
  const named = formText(form, "intent", 300).split(" ")[0]!;
  const single = typeof handlers === "function";
  const intent = (single ? "" : Object.hasOwn(handlers, named) ? named : "") as Intent | "";
  const handler = single ? handlers : intent ? (handlers as Record<string, FormHandler<Values>>)[intent] : undefined;
  if (!handler) {
    return data<FormResult<Intent, Values>>(
      { ok: false, intent: "", message: nothingAskedFor, code: "invalid" },
      { status: 400 },
    );
  }
  try {
    const reply = await handler(form);
    if (reply instanceof Response) return reply;
    const { ok = true, ...rest } = reply;
    const result: FormResult<Intent, Values> = ok ? { ok, intent, ...rest } : { ok, intent, ...rest, code: "invalid" };
    return data(result, { status: ok ? 200 : httpStatus("invalid") });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const result: FormResult<Intent, Values> = {
      ok: false,
      intent,
      message: error.message,
      ...(error.fields && { fields: error.fields }),
      values: options.values ? options.values(form) : (typedValues(form) as Values),
      code: error.code,
    };
    return data(result, { status: httpStatus(error.code), headers: error.extra.headers });
  }
}
