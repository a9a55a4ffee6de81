import { useEffect } from "react";
import { Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/admin.sign-in";
import { ErrorPage } from "~/components/layout/error-page";
import { Field } from "~/components/ui/field";
import { FormNotice } from "~/components/ui/form-notice";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { signIn } from "~/features/staff/sign-in.server";
import { safeReturnPath, staffForRequest } from "~/features/staff/staff.server";
import { answerForm, formText } from "~/infra/http/form-action.server";
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
  const next = safeReturnPath(new URL(request.url).searchParams.get("next"));
  return answerForm(request, async (form) => {
    const email = formText(form, "email", 200);
    const password = formText(form, "password", 200);
    if (!email.trim() || !password) throw new AppError("invalid", "Enter your email and password.");
    const { cookies } = await signIn(
      context.services,
      { email, password },
      { clientAddress: context.clientAddress, cookieHeader: request.headers.get("Cookie") },
    );
    return redirect(next, { headers: cookies.map((cookie): [string, string] => ["Set-Cookie", cookie]) });
  });
});

export const meta: Route.MetaFunction = () => adminMeta("Sign in");

export function headers() {
  return { "X-Robots-Tag": "noindex, nofollow", "Cache-Control": "private, no-store" };
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/admin/sign-in");
  const error = actionData?.message;
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
          <FormNotice ok={false} id="sign-in-error">
            {error}
          </FormNotice>
        ) : null}
        {/* The form's message says what is wrong with the two together. */}
        <Field
          id="staff-email"
          label="Email"
          input={{
            name: "email",
            type: "email",
            autoComplete: "username",
            required: true,
            maxLength: 200,
            defaultValue: actionData?.values?.email ?? "",
            "aria-invalid": error ? true : undefined,
          }}
        />
        <Field
          id="staff-password"
          label="Password"
          input={{
            name: "password",
            type: "password",
            autoComplete: "current-password",
            required: true,
            maxLength: 200,
            "aria-invalid": error ? true : undefined,
          }}
        />
        {/* aria-disabled, not disabled: a disabled button would drop keyboard focus mid-send. */}
        <button type="submit" className="button" aria-disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </Form>
      <p>
        <Link to="/admin/forgot-password">Forgot your password?</Link>
      </p>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
