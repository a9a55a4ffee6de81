import type { ApiError, ErrorCode, FieldErrors } from "./errors";

// The browser's side of the site's own JSON API: one call, one answer shape, whatever the route.

export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; error: string; code: ErrorCode | "network"; fields?: FieldErrors; ref?: string };

/**
 * POSTs `body` as JSON. A success gives the route's data; a failure gives the route's
 * {error, code, fields?} as it was sent, or a "network" failure when no answer came back.
 */
export async function postJson<T>(url: string, body: unknown): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, code: "network", error: "the site could not be reached. Check your connection" };
  }
  const json = (await response.json().catch(() => undefined)) as unknown;
  if (response.ok) return { ok: true, status: response.status, data: json as T };
  const failure = (json ?? {}) as Partial<ApiError>;
  return {
    ok: false,
    status: response.status,
    code: failure.code ?? "unexpected",
    error: failure.error ?? `the site answered ${response.status}`,
    ...(failure.fields && { fields: failure.fields }),
    ...(failure.ref && { ref: failure.ref }),
  };
}
