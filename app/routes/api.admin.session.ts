import { z } from "zod";
import type { Route } from "./+types/api.admin.session";
import { signIn, signOut } from "~/features/staff/sign-in.server";
import { allowMethods, apiRoute, noStore, onlyAllows, readJsonBody } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

const credentialsSchema = z.object({ email: z.string().max(200), password: z.string().max(200) });

// POST /api/admin/session {email, password} → 204 with the session and known-device cookies; DELETE signs out.
export const loader = onlyAllows("POST", "DELETE");

export const action = ({ request, context }: Route.ActionArgs) =>
  apiRoute("Staff sign-in", async () => {
    allowMethods(request, "POST", "DELETE");
    if (request.method === "DELETE") {
      const { cookie } = await signOut(context.services, request);
      return new Response(null, { status: 204, headers: { "Set-Cookie": cookie, ...noStore } });
    }
    const credentials = credentialsSchema.safeParse(await readJsonBody(request));
    if (!credentials.success) throw new AppError("invalid", "Send an email and a password.");
    const { cookies } = await signIn(context.services, credentials.data, {
      clientAddress: context.clientAddress,
      cookieHeader: request.headers.get("Cookie"),
    });
    const headers = new Headers(noStore);
    for (const cookie of cookies) headers.append("Set-Cookie", cookie);
    return new Response(null, { status: 204, headers });
  });
