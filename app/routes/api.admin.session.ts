import { z } from "zod";
import type { Route } from "./+types/api.admin.session";
import {
  authenticate,
  clearedSessionCookie,
  endSession,
  sessionCookie,
  sessionTokenFrom,
  startSession,
} from "~/features/staff/staff.server";
import { readJsonBody } from "~/lib/json-body.server";

const credentialsSchema = z.object({ email: z.string().max(200), password: z.string().max(200) });
const noStore = { "Cache-Control": "no-store" };

// POST /api/admin/session {email, password} → 204 with the session cookie; DELETE signs out.
export async function action({ request, context }: Route.ActionArgs) {
  const { db, config, limits, clock } = context.services;
  const secure = config.production && config.publicUrl.startsWith("https:");

  if (request.method === "DELETE") {
    const token = sessionTokenFrom(request);
    if (token) await endSession(db, token);
    return new Response(null, { status: 204, headers: { "Set-Cookie": clearedSessionCookie(secure), ...noStore } });
  }
  if (request.method !== "POST") return Response.json({ error: "Method not allowed." }, { status: 405 });

  const body = await readJsonBody(request);
  if (!body.ok) return body.response;
  const credentials = credentialsSchema.safeParse(body.value);
  if (!credentials.success) {
    return Response.json({ error: "Send an email and a password." }, { status: 400, headers: noStore });
  }
  const email = credentials.data.email.trim().toLowerCase();
  const now = clock.now();
  // Only failures count towards the limits, so a member of staff who mistypes is not locked out by others' successes.
  const allowed =
    limits.staffSignIns.peek(`address:${context.clientAddress}`, now) &&
    limits.staffSignIns.peek(`email:${email}`, now);
  if (!allowed) {
    return Response.json(
      { error: "Too many failed sign-in attempts. Please wait 15 minutes and try again." },
      { status: 429, headers: { ...noStore, "Retry-After": "900" } },
    );
  }
  const user = await authenticate(db, email, credentials.data.password);
  if (!user) {
    limits.staffSignIns.attempt(`address:${context.clientAddress}`, now);
    limits.staffSignIns.attempt(`email:${email}`, now);
    return Response.json({ error: "The email or password is not right." }, { status: 401, headers: noStore });
  }
  const session = await startSession(db, user, now);
  return new Response(null, {
    status: 204,
    headers: { "Set-Cookie": sessionCookie(session.token, session.expiresAt, now, secure), ...noStore },
  });
}
