import type { Route } from "./+types/admin.emails.id";
import { ErrorPage } from "~/components/layout/error-page";
import { emailPreview } from "~/features/emails/emails.server";
import { deliveredText } from "~/features/emails/mail-mode";
import { Breadcrumbs } from "~/features/staff/components/breadcrumbs";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";
import { londonStamp } from "~/lib/london-time";
import { plural } from "~/lib/plural";

// /admin/emails/<id>: one e-mail as it was (or will be) sent: to, subject, when, and the text; its
// html opens as a sandboxed document of its own (admin.emails.id.html.ts).
export const loader = pageWork("An e-mail's preview", async ({ request, params, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "site");
  return { email: await emailPreview(context.services, params.emailId) };
});

export const meta: Route.MetaFunction = () => adminMeta("E-mail preview");

const when = (iso: string) => londonStamp(iso);

export default function EmailPreviewPage({ loaderData: { email } }: Route.ComponentProps) {
  return (
    <main id="main" className="page">
      <Breadcrumbs here={email.subject} />
      <h1>E-mail preview</h1>
      <dl className="email-meta">
        <dt>To</dt>
        <dd>{email.recipient}</dd>
        <dt>Subject</dt>
        <dd>{email.subject}</dd>
        <dt>Kind</dt>
        <dd>{email.kindLabel}</dd>
        <dt>Created</dt>
        <dd>{when(email.createdAt)}</dd>
        <dt>Status</dt>
        <dd>
          {email.sentAt
            ? deliveredText({ sentAt: email.sentAt, deliveredBy: email.deliveredBy })
            : email.lastError
              ? `Not sent yet (${plural(email.attempts, "attempt")}): ${email.lastError}`
              : "Waiting to be sent"}
        </dd>
      </dl>
      <section className="section" aria-labelledby="text-heading">
        <h2 id="text-heading">Text</h2>
        <pre className="email-text" tabIndex={0} role="region" aria-label="The e-mail's text">
          {email.text}
        </pre>
      </section>
      {email.html ? (
        <p>
          {/* Its own document under a CSP sandbox: the e-mail's html runs no script and cannot reach the staff area. */}
          <a href={`/admin/emails/${email.id}/html`} target="_blank" rel="noopener noreferrer">
            Open its html version (in a new tab)
          </a>
        </p>
      ) : null}
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
