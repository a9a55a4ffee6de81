// The site's one error model (docs/decisions/010-one-way-to-do-each-thing.md). A feature that
// refuses something throws an AppError: a code the program acts on, and a message written for the
// visitor. app/infra/http/api.server.ts turns it into the one JSON shape every API answers with;
// anything else is unexpected, logged with a reference, and never shown.

/** What kind of failure: each code has one HTTP status (app/infra/http/api.server.ts). */
export type ErrorCode =
  | "invalid"
  | "unauthorised"
  | "forbidden"
  | "not-found"
  | "method-not-allowed"
  | "conflict"
  | "payload-too-large"
  | "unsupported-media-type"
  | "too-many-requests"
  /** Payments are spiking: a start needs a solved proof-of-work challenge (GET /api/challenge). */
  | "challenge-required"
  /** A card the provider refused (the offline test provider's card form). */
  | "card-declined"
  | "unexpected"
  | "provider-unavailable";

/** One message per field, under the field's name (a nested field's path joined with dots). */
export type FieldErrors = Record<string, string>;

/** The body of every API answer that is not a success. */
export interface ApiError {
  /** For the visitor (or the staff member): what went wrong and what to do. */
  error: string;
  code: ErrorCode;
  fields?: FieldErrors;
  /** For an unexpected failure: the reference it was logged under. */
  ref?: string;
}

/** A failure the visitor may be told about: `message` is written for them, never internal text. */
export class AppError extends Error {
  override name = "AppError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { fields?: FieldErrors; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: extra.cause });
  }

  get fields(): FieldErrors | undefined {
    return this.extra.fields;
  }
}

/** What a visitor is told when something failed that they could not have caused. */
export function unexpectedMessage(ref: string) {
  return `Something went wrong on our side. Please try again in a moment; if it keeps happening, write to us quoting reference ${ref}.`;
}

/**
 * What a page's error boundary shows for a signed-in member whose role does not reach the page
 * (status 403): its title, why, and where they may go instead (app/components/layout/error-page.tsx).
 */
export interface PageRefusal {
  refused: { title: string; message: string; links: { href: string; label: string }[] };
}

export function isPageRefusal(value: unknown): value is PageRefusal {
  const refused = (value as Partial<PageRefusal> | null)?.refused;
  return typeof refused?.title === "string" && typeof refused.message === "string" && Array.isArray(refused.links);
}
