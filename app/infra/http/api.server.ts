import { AppError, unexpectedMessage, type ApiError, type ErrorCode } from "~/lib/errors";
import { nestsTooDeep, tooDeepMessage } from "~/lib/json-depth";
import { logUnexpectedError } from "../log.server";
import { bodyLimits, tooLargeError } from "./body-limits.server";

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
  "card-declined": 402,
  unexpected: 500,
  "provider-unavailable": 502,
};

export const noStore = { "Cache-Control": "no-store" } as const;

/**
 * Public JSON that changes when staff publish (the page content): any cache may keep it but asks
 * again each time, and a client that has this `etag` is answered 304 with no body, so a publish is
 * seen at once.
 */
export function publishedJson(request: Request, body: unknown, etag: string): Response {
  const headers = { "Cache-Control": "public, no-cache", ETag: etag };
  const known = (request.headers.get("If-None-Match") ?? "").split(",").map((tag) => tag.trim());
  if (known.includes(etag) || known.includes("*")) return new Response(null, { status: 304, headers });
  return Response.json(body, { headers });
}

export function httpStatus(code: ErrorCode) {
  return statusOf[code];
}

/** Logs an error nobody planned for under a short reference, and returns the reference (app/infra/log.server.ts). */
export function logUnexpected(error: unknown, where: string): string {
  return logUnexpectedError(error, where);
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
  let response: Response;
  try {
    response = await work();
  } catch (error) {
    response = error instanceof Response ? error : errorResponse(error, where);
  }
  return withLength(response);
}

/**
 * A JSON answer with its length said, so that the compression in front of the site
 * (server/http.ts) leaves a small one as it is: without a length it compresses every answer it
 * cannot measure, and starting a compressor costs more of a core than the few hundred bytes of a
 * checkout's answer are worth. A large answer, such as a staff list, is still compressed.
 */
async function withLength(response: Response): Promise<Response> {
  if (!response.body || response.headers.has("Content-Length")) return response;
  if (!(response.headers.get("Content-Type") ?? "").includes("json")) return response;
  const bytes = await response.arrayBuffer();
  const headers = new Headers(response.headers);
  headers.set("Content-Length", String(bytes.byteLength));
  return new Response(bytes, { status: response.status, statusText: response.statusText, headers });
}

/** Refuses any method but the ones a route answers. */
export function allowMethods(request: Request, ...methods: string[]) {
  if (!methods.includes(request.method.toUpperCase())) throw methodNotAllowed(methods);
}

function methodNotAllowed(methods: string[]) {
  return new AppError("method-not-allowed", "Method not allowed.", { headers: { Allow: methods.join(", ") } });
}

/**
 * The loader of an API route that only takes posts: a GET (or HEAD) is answered 405 with the
 * methods it does take, not React Router's 400 for a route without a loader.
 */
export function onlyAllows(...methods: string[]) {
  return () =>
    apiRoute("Refusing a method", () => {
      throw methodNotAllowed(methods);
    });
}

/**
 * The JSON body of an API request, as an object, at most `maxBytes` long and nested at most
 * `maxJsonDepth` deep. Staff endpoints accept
 * only application/json: a browser cannot send that cross-site without asking first, which, with
 * SameSite=Strict cookies, shuts out forged requests.
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number = bodyLimits.form,
): Promise<Record<string, unknown>> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) {
    throw new AppError("unsupported-media-type", "Send the body as application/json.");
  }
  const text = new TextDecoder().decode(await readBodyBytes(request, maxBytes, () => tooLargeError(maxBytes)));
  if (nestsTooDeep(text)) throw new AppError("invalid", `The body ${tooDeepMessage}.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("invalid", "The body is not valid JSON.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError("invalid", "The body must be a JSON object.");
  }
  return value as Record<string, unknown>;
}

const formTypes = ["application/x-www-form-urlencoded", "multipart/form-data"];

/** Whether the request says its body is a form (URL-encoded or multipart). */
export function isFormBody(request: Request) {
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  return formTypes.some((form) => type.startsWith(form));
}

/**
 * The form a page's action (or a form-accepting API) was sent, at most `maxBytes` long: anything
 * but a form is refused with 415, a form that cannot be read (broken multipart) with 400, one too
 * large with `tooLarge` (413, saying the limit, unless the form has its own words for it).
 */
export async function readFormBody(
  request: Request,
  maxBytes: number = bodyLimits.form,
  tooLarge: () => AppError = () => tooLargeError(maxBytes),
): Promise<FormData> {
  if (!isFormBody(request)) {
    throw new AppError("unsupported-media-type", "Send the form as a web form would (URL-encoded or multipart).");
  }
  const bytes = await readBodyBytes(request, maxBytes, tooLarge);
  try {
    return await new Response(bytes, {
      headers: { "Content-Type": request.headers.get("Content-Type") ?? "" },
    }).formData();
  } catch {
    throw new AppError("invalid", "The form could not be read: please send it again.");
  }
}

/** The request's body as text, at most `maxBytes` long (a webhook's, whose exact bytes are signed). */
export async function readTextBody(request: Request, maxBytes: number): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(request, maxBytes, () => tooLargeError(maxBytes)));
}

/**
 * The request's body as bytes, refused as `tooLarge(size)` once it passes `maxBytes` (its declared
 * Content-Length first, then what actually arrives), so an oversized body is never held whole.
 * Past the cap it stops reading and leaves the rest unread (cancelling would reset the connection
 * before the 413 goes out); the server discards it and closes the connection.
 */
export async function readBodyBytes(
  request: Request,
  maxBytes: number,
  tooLarge: (bytes: number | undefined) => AppError,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("Content-Length") ?? NaN);
  if (declared > maxBytes) throw tooLarge(declared);
  if (!request.body) return new Uint8Array();
  if (request.bodyUsed) throw new Error("The request's body was already read.");
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = request.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    received += chunk.value.length;
    if (received > maxBytes) {
      reader.releaseLock();
      throw tooLarge(Number.isFinite(declared) ? declared : undefined);
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks);
}
