import { Link, data, redirect } from "react-router";
import type { Route } from "./+types/admin.reset-password.token";
import { ErrorPage } from "~/components/layout/error-page";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { ChoosePasswordForm, oneTimeLinkHeaders } from "~/features/staff/components/password-field";
import { openPasswordReset, resetPassword } from "~/features/staff/password-reset.server";
import { homeOf } from "~/features/staff/roles";
import { resetGone } from "~/features/staff/schema";
import { startSignedInSession } from "~/features/staff/sign-in.server";
import { answerForm, formText } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";

// /admin/reset-password/<token>: the link in a password reset e-mail. Reachable without a session
// (that is its point), like an invitation's: the member chooses a new password, every other
// session of theirs ends, and they land on their staff home signed in. A link that does not work
// (unknown, used, expired) says so and changes nothing.
export const loader = pageWork("The password reset page", async ({ params, context }: Route.LoaderArgs) => {
  const reset = await openPasswordReset(context.services, params.token, context.services.clock.now());
  if (!reset) return data({ gone: true as const, email: "" }, { status: 410 });
  return { gone: false as const, email: reset.email };
});

export const action = pageWork("Choosing a new password", async ({ request, params, context }: Route.ActionArgs) => {
  const { services } = context;
  const now = services.clock.now();
  return answerForm(request, async (form) => {
    const user = await resetPassword(
      services,
      params.token,
      { newPassword: formText(form, "newPassword", 300), repeatPassword: formText(form, "repeatPassword", 300) },
      now,
    );
    const { cookie } = await startSignedInSession(services, user, now);
    return redirect(homeOf(user.role).href, { headers: { "Set-Cookie": cookie } });
  });
});

export const meta: Route.MetaFunction = () => adminMeta("Choose a new password");

export const headers = oneTimeLinkHeaders;

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  // The link stopped working while the page was open (used or expired meanwhile).
  if (loaderData.gone || actionData?.code === "not-found") {
    return (
      <main id="main" className="page narrow">
        <h1>This link no longer works</h1>
        <p>{resetGone}</p>
        <p>
          <Link to="/admin/forgot-password">Ask for a new link</Link>
        </p>
      </main>
    );
  }
  return (
    <main id="main" className="page narrow">
      <h1>Choose a new password</h1>
      <p>
        Choose a new password for <strong>{loaderData.email}</strong>. You will be signed out on every other device.
      </p>
      <ChoosePasswordForm email={loaderData.email} idPrefix="reset-" answer={actionData} />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
