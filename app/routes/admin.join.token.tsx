import { data, redirect } from "react-router";
import type { Route } from "./+types/admin.join.token";
import { ErrorPage } from "~/components/layout/error-page";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { ChoosePasswordForm, oneTimeLinkHeaders } from "~/features/staff/components/password-field";
import { acceptInvitation, openInvitation } from "~/features/staff/members.server";
import { invitationGone } from "~/features/staff/schema";
import { startSignedInSession } from "~/features/staff/sign-in.server";
import { answerForm, formText } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";

// /admin/join/<token>: the link in a staff invitation. Reachable without a session (that is its
// point): the invited address chooses a password, the account is made, and they land on /admin
// signed in. A link that does not work (unknown, used, expired) says so and changes nothing.
export const loader = pageWork("The staff invitation page", async ({ params, context }: Route.LoaderArgs) => {
  const invitation = await openInvitation(context.services, params.token, context.services.clock.now());
  if (!invitation) return data({ gone: true as const, email: "" }, { status: 410 });
  return { gone: false as const, email: invitation.email };
});

export const action = pageWork("Joining the staff", async ({ request, params, context }: Route.ActionArgs) => {
  const { services } = context;
  const now = services.clock.now();
  return answerForm(request, async (form) => {
    const user = await acceptInvitation(
      services,
      params.token,
      { newPassword: formText(form, "newPassword", 300), repeatPassword: formText(form, "repeatPassword", 300) },
      now,
    );
    const { cookie } = await startSignedInSession(services, user, now);
    return redirect("/admin", { headers: { "Set-Cookie": cookie } });
  });
});

export const meta: Route.MetaFunction = () => adminMeta("Join the staff");

export const headers = oneTimeLinkHeaders;

export default function JoinStaff({ loaderData, actionData }: Route.ComponentProps) {
  // The link stopped working while the page was open (used, cancelled or expired meanwhile).
  if (loaderData.gone || actionData?.code === "not-found") {
    return (
      <main id="main" className="page narrow">
        <h1>This link no longer works</h1>
        <p>{invitationGone}</p>
        <p>
          <a href="/admin/sign-in">Staff sign in</a>
        </p>
      </main>
    );
  }
  return (
    <main id="main" className="page narrow">
      <h1>Join the staff</h1>
      <p>
        Choose a password for <strong>{loaderData.email}</strong>. You will use this address and password to sign in.
      </p>
      <ChoosePasswordForm email={loaderData.email} idPrefix="join-" answer={actionData} />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
