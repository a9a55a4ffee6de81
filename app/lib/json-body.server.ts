/**
 * The JSON body of an API request. Staff endpoints accept only application/json: a browser cannot
 * send that cross-site without asking first, which, with SameSite=Strict cookies, shuts out forged
 * requests.
 */
export async function readJsonBody(
  request: Request,
): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) {
    return {
      ok: false,
      response: Response.json({ error: "Send the body as application/json." }, { status: 415 }),
    };
  }
  try {
    return { ok: true, value: await request.json() };
  } catch {
    return { ok: false, response: Response.json({ error: "The body is not valid JSON." }, { status: 400 }) };
  }
}
