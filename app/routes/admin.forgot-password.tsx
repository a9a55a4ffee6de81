import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/admin.forgot-password";
import { ErrorPage } from "~/components/layout/error-page";
import { Field } from "~/components/ui/field";
import { FormNotice } from "~/components/ui/form-notice";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { askForPasswordReset } from "~/features/staff/password-reset.server";
import { resetAsked } from "~/features/staff/schema";
import { answerForm, formText } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";

// /admin/forgot-password: a member who cannot sign in asks for a one-time link to choose a new
// password (docs/decisions/072-password-reset.md). The answer is the same whether or not the
// address has an account, so the page tells no one who is on the staff; asking is limited as
// signing in is.
export const loader = pageWork("The forgotten password page", async () => ({}));

export const action = pageWork("Asking for a password reset link", async ({ request, context }: Route.ActionArgs) => {
  const { services } = context;
  return answerForm(request, async (form) => {
    await askForPasswordReset(services, formText(form, "email", 300), { clientAddress: context.clientAddress });
    // Sent now by the outbox's own round, not awaited: the answer takes as long either way.
    void services.outbox.deliverDue();
    return { message: resetAsked };
  });
});

export const meta: Route.MetaFunction = () => adminMeta("Forgot your password?");

export function headers() {
  return { "X-Robots-Tag": "noindex, nofollow", "Cache-Control": "private, no-store" };
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const sent = actionData?.ok ? actionData : undefined;
  return (
    <main id="main" className="page narrow">
      <h1>Forgot your password?</h1>
      {sent ? (
        <>
          <FormNotice ok>{sent.message}</FormNotice>
          <p>The link works once, for 72 hours. If nothing arrives, check your spam folder, or ask an Owner.</p>
        </>
      ) : (
        <>
          <p>Enter the e-mail address you sign in with. We will send it a link to choose a new password.</p>
          <Form method="post" className="form" noValidate>
            {actionData && !actionData.fields ? <FormNotice ok={actionData.ok}>{actionData.message}</FormNotice> : null}
            <Field
              id="forgot-email"
              label="Email"
              input={{
                name: "email",
                type: "email",
                autoComplete: "username",
                required: true,
                maxLength: 200,
                defaultValue: actionData?.values?.email ?? "",
              }}
              error={actionData?.fields?.email}
            />
            <button type="submit" className="button" aria-disabled={busy}>
              {busy ? "Sending…" : "Send me a link"}
            </button>
          </Form>
        </>
      )}
      <p>
        <Link to="/admin/sign-in">Back to sign in</Link>
      </p>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
