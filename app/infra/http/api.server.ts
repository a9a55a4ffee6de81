import crypto from "node:crypto";
import { AppError, unexpectedMessage, type ApiError, type ErrorCode } from "~/lib/errors";

// How every /api/* route answers (docs/decisions/010-one-way-to-do-each-thing.md): the one place
// error codes become HTTP statuses, one JSON shape for failures ({error, code, fields?, ref?}),
// and unexpected errors logged with a reference the visitor can quote, never shown.

const statusOf: Record<ErrorCode, number> = {
  invalid: 400,
  unauthorised: 401,
  forbidden: 403,
  "not-found": 404,
  "method-not-allowed": 405,
  conflict: 409,
  "payload-too-large": 413,
  "unsupported-media-type": 415,
  "too-many-requests": 429,
  "challenge-required": 403,
  unexpected: 500,
  "provider-unavailable": 502,
};

export const noStore = { "Cache-Control": "no-store" } as const;

export function httpStatus(code: ErrorCode) {
  return statusOf[code];
}

/** Logs an error nobody planned for under a short reference, and returns the reference. */
export function logUnexpected(error: unknown, where: string): string {
  const ref = crypto.randomBytes(4).toString("hex").toUpperCase();
  console.error(`[${ref}] ${where}:`, error);
  return ref;
}

/** The answer for a failure: an AppError as it says, anything else as an unexpected one. */
export function errorResponse(error: unknown, where: string): Response {
  if (error instanceof AppError) {
    const body: ApiError = { error: error.message, code: error.code, ...(error.fields && { fields: error.fields }) };
    return Response.json(body, { status: statusOf[error.code], headers: { ...noStore, ...error.extra.headers } });
  }
  const ref = logUnexpected(error, where);
  const body: ApiError = { error: unexpectedMessage(ref), code: "unexpected", ref };
  return Response.json(body, { status: 500, headers: noStore });
}

/**
 * Runs an API route's work: a Response (returned or thrown, e.g. a 401) goes out as it is, an
 * AppError as its JSON answer, anything else as an unexpected error with a reference.
 */
export async function apiRoute(where: string, work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Response) return error;
    return errorResponse(error, where);
  }
}

/** Refuses any method but the ones a route answers. */
export function allowMethods(request: Request, ...methods: string[]) {
  if (!methods.includes(request.method.toUpperCase())) {
    throw new AppError("method-not-allowed", "Method not allowed.", { headers: { Allow: methods.join(", ") } });
  }
}

/**
 * The JSON body of an API request, as an object. Staff endpoints accept only application/json: a
 * browser cannot send that cross-site without asking first, which, with SameSite=Strict cookies,
 * shuts out forged requests.
 */
export async function readJsonBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) {
    throw new AppError("unsupported-media-type", "Send the body as application/json.");
  }
  let value: unknown;
  try {
    value = await request.json();
  } catch {
    throw new AppError("invalid", "The body is not valid JSON.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError("invalid", "The body must be a JSON object.");
  }
  return value as Record<string, unknown>;
}

/**
 * Refuses a state-changing request sent from another site. The staff cookie is SameSite=Strict, so
 * a browser does not send it cross-site; this checks the Origin (or, without one, the Referer) as
 * well, so a form post from elsewhere is refused even before the session is looked at.
 */
export function requireSameOrigin(request: Request, publicUrl: string) {
  const source = request.headers.get("Origin") ?? request.headers.get("Referer");
  if (!source) return; // Not a browser's cross-site request: browsers send Origin on every POST.
  let origin: string;
  try {
    origin = new URL(source).origin;
  } catch {
    origin = "null";
  }
  if (origin !== new URL(request.url).origin && origin !== new URL(publicUrl).origin) {
    throw new AppError("forbidden", "This form can only be sent from this site's own pages.");
  }
}

/**
 * The request's body as bytes, refused as `tooLarge(size)` once it passes `maxBytes` (its declared
 * Content-Length first, then what actually arrives), so an oversized upload is never held whole.
 */
export async function readBodyBytes(
  request: Request,
  maxBytes: number,
  tooLarge: (bytes: number | undefined) => AppError,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("Content-Length") ?? NaN);
  if (declared > maxBytes) throw tooLarge(declared);
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = request.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    received += chunk.value.length;
    if (received > maxBytes) {
      await reader.cancel();
      throw tooLarge(Number.isFinite(declared) ? declared : undefined);
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks);
}
