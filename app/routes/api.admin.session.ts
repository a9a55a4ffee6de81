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
import { allowMethods, apiRoute, noStore, readJsonBody } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

const credentialsSchema = z.object({ email: z.string().max(200), password: z.string().max(200) });

// POST /api/admin/session {email, password} → 204 with the session cookie; DELETE signs out.
export const action = ({ request, context }: Route.ActionArgs) =>
  apiRoute("Staff sign-in", async () => {
    const { db, config, limits, clock } = context.services;
    const secure = config.production && config.publicUrl.startsWith("https:");
    allowMethods(request, "POST", "DELETE");

    if (request.method === "DELETE") {
      const token = sessionTokenFrom(request);
      if (token) await endSession(db, token);
      return new Response(null, { status: 204, headers: { "Set-Cookie": clearedSessionCookie(secure), ...noStore } });
    }

    const credentials = credentialsSchema.safeParse(await readJsonBody(request));
    if (!credentials.success) throw new AppError("invalid", "Send an email and a password.");
    const email = credentials.data.email.trim().toLowerCase();
    const now = clock.now();
    // Only failures count towards the limits, so a member of staff who mistypes is not locked out by others' successes.
    const allowed =
      limits.staffSignIns.peek(`address:${context.clientAddress}`, now) &&
      limits.staffSignIns.peek(`email:${email}`, now);
    if (!allowed) {
      throw new AppError(
        "too-many-requests",
        "Too many failed sign-in attempts. Please wait 15 minutes and try again.",
        {
          headers: { "Retry-After": "900" },
        },
      );
    }
    const user = await authenticate(db, email, credentials.data.password);
    if (!user) {
      limits.staffSignIns.attempt(`address:${context.clientAddress}`, now);
      limits.staffSignIns.attempt(`email:${email}`, now);
      throw new AppError("unauthorised", "The email or password is not right.");
    }
    const session = await startSession(db, user, now);
    return new Response(null, {
      status: 204,
      headers: { "Set-Cookie": sessionCookie(session.token, session.expiresAt, now, secure), ...noStore },
    });
  });
