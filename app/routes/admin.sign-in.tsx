import { useEffect } from "react";
import { Form, data, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/admin.sign-in";
import { ErrorPage } from "~/components/layout/error-page";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { signIn } from "~/features/staff/sign-in.server";
import { safeReturnPath, staffForRequest } from "~/features/staff/staff.server";
import { readFormBody } from "~/infra/http/api.server";
import { pageWork } from "~/infra/http/page.server";
import { forgetDoorData } from "~/lib/door-offline";
import { AppError } from "~/lib/errors";

// /admin/sign-in: staff sign in with their e-mail and password, then go back to the admin page
// they asked for (?next=). The same rule and limits as POST /api/admin/session.
export const loader = pageWork("The staff sign-in page", async ({ request, context }: Route.LoaderArgs) => {
  const next = safeReturnPath(new URL(request.url).searchParams.get("next"));
  if (await staffForRequest(context.services, request)) throw redirect(next);
  return { next };
});

export const action = pageWork("Signing staff in", async ({ request, context }: Route.ActionArgs) => {
  const form = await readFormBody(request);
  const email = String(form.get("email") ?? "").slice(0, 200);
  const password = String(form.get("password") ?? "").slice(0, 200);
  const next = safeReturnPath(new URL(request.url).searchParams.get("next"));
  if (!email.trim() || !password) {
    return data({ error: "Enter your email and password.", email }, { status: 400 });
  }
  try {
    const { cookies } = await signIn(
      context.services,
      { email, password },
      { clientAddress: context.clientAddress, cookieHeader: request.headers.get("Cookie") },
    );
    return redirect(next, { headers: cookies.map((cookie): [string, string] => ["Set-Cookie", cookie]) });
  } catch (error) {
    if (error instanceof AppError && (error.code === "unauthorised" || error.code === "too-many-requests")) {
      return data(
        { error: error.message, email },
        { status: error.code === "unauthorised" ? 401 : 429, headers: error.extra.headers },
      );
    }
    throw error;
  }
});

export const meta: Route.MetaFunction = () => adminMeta("Sign in");

export function headers() {
  return { "X-Robots-Tag": "noindex, nofollow", "Cache-Control": "private, no-store" };
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/admin/sign-in");
  const error = actionData?.error;
  // Whoever is here is signed out: the door's kept lists of names go (unsent check-ins stay).
  useEffect(() => void forgetDoorData(), []);
  return (
    <main id="main" className="page narrow">
      <h1>Staff sign in</h1>
      <Form
        method="post"
        action={`/admin/sign-in?next=${encodeURIComponent(loaderData.next)}`}
        className="form"
        aria-describedby={error ? "sign-in-error" : undefined}
      >
        {error ? (
          <p id="sign-in-error" className="form-summary" role="alert">
            {error}
          </p>
        ) : null}
        <div className="field">
          <label htmlFor="staff-email">Email</label>
          <input
            id="staff-email"
            name="email"
            type="email"
            autoComplete="username"
            required
            maxLength={200}
            defaultValue={actionData?.email ?? ""}
            aria-invalid={error ? true : undefined}
          />
        </div>
        <div className="field">
          <label htmlFor="staff-password">Password</label>
          <input
            id="staff-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            maxLength={200}
            aria-invalid={error ? true : undefined}
          />
        </div>
        {/* aria-disabled, not disabled: a disabled button would drop keyboard focus mid-send. */}
        <button type="submit" className="button" aria-disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </Form>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
