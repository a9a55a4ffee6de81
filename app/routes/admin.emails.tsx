import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/admin.emails";
import { ErrorPage } from "~/components/layout/error-page";
import { FormNotice } from "~/components/ui/form-notice";
import { Pagination } from "~/components/ui/pagination";
import { TableScroll } from "~/components/ui/table-scroll";
import { useQuery } from "~/components/ui/use-query";
import { emailsPage, isEmailStatus, retryEmail, type EmailView } from "~/features/emails/emails.server";
import { deliveredText, leftLabel, mailMode, retriedText } from "~/features/emails/mail-mode";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { answerForm, formText } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError } from "~/lib/errors";
import { londonStamp } from "~/lib/london-time";
import { requestedPage } from "~/lib/pagination";

// /admin/emails: the outbox, newest first, 50 a page, by status; Retry now on an unsent e-mail
// (with the mail server's answer, for staff only); each e-mail's Preview.
export const loader = pageWork("The e-mails page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "site");
  const search = new URL(request.url).searchParams;
  const status = search.get("status");
  return {
    mode: mailMode(context.services),
    status: isEmailStatus(status) ? status : "",
    emails: await emailsPage(context.services, {
      page: requestedPage(search.get("page")),
      status: isEmailStatus(status) ? status : undefined,
    }),
  };
});

export const action = pageWork("Retrying an e-mail", async ({ request, context }: Route.ActionArgs) => {
  const { services } = context;
  const staff = await requireStaffPage(services, request, "site");
  return answerForm(request, {
    retry: async (form) => {
      const result = await retryEmail(services, staff, formText(form, "id", 100), services.clock.now());
      if (!result.sent) {
        throw new AppError(
          "provider-unavailable",
          `The e-mail could not be sent. The mail server said: ${result.error}`,
        );
      }
      return { message: retriedText(mailMode(services)) };
    },
  });
});

export const meta: Route.MetaFunction = () => adminMeta("E-mails");

const when = (iso: string) => londonStamp(iso);

function statusText(email: EmailView) {
  if (email.status === "sent") return deliveredText({ sentAt: email.sentAt!, deliveredBy: email.deliveredBy });
  if (email.status === "waiting") return `Waiting (next try at ${when(email.nextAttemptAt)})`;
  return `Failing (${email.attempts} ${email.attempts === 1 ? "attempt" : "attempts"}; next try at ${when(email.nextAttemptAt)}): ${email.lastError ?? ""}`;
}

export default function AdminEmails({ loaderData: { emails, status, mode }, actionData }: Route.ComponentProps) {
  const filters = [
    ["", "All"],
    ["failing", "Failing"],
    ["waiting", "Waiting"],
    ["sent", leftLabel(mode)],
  ] as const;
  const search = useQuery();
  const navigation = useNavigation();
  const retrying = navigation.state !== "idle" ? navigation.formData?.get("id") : undefined;
  return (
    <main id="main" className="page">
      <h1>E-mails</h1>
      {actionData ? <FormNotice ok={actionData.ok}>{actionData.message}</FormNotice> : null}
      <nav aria-label="Show e-mails by status" className="email-filters">
        <ul>
          {filters.map(([value, label]) => (
            <li key={value}>
              <Link to={value ? `?status=${value}` : "?"} aria-current={status === value ? "page" : undefined}>
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {emails.total === 0 ? (
        <p>{status ? "No e-mail has this status." : "There are no e-mails yet."}</p>
      ) : (
        <>
          <p>{emails.total} in all, newest first.</p>
          <TableScroll label="Table of e-mails">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Kind</th>
                  <th scope="col">To</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {emails.rows.map((email) => (
                  <tr key={email.id}>
                    <td data-label="Created">{when(email.createdAt)}</td>
                    <td data-label="Kind">{email.kindLabel}</td>
                    <td data-label="To">{email.recipient}</td>
                    <th scope="row">{email.subject}</th>
                    <td data-label="Status" className={`email-status email-${email.status}`}>
                      {statusText(email)}
                    </td>
                    <td data-label="Actions">
                      <div className="email-actions">
                        <Link to={`/admin/emails/${email.id}`} aria-label={`Preview: ${email.subject}`}>
                          Preview
                        </Link>
                        {email.status === "sent" ? null : (
                          <Form method="post">
                            <input type="hidden" name="intent" value="retry" />
                            <input type="hidden" name="id" value={email.id} />
                            <button
                              type="submit"
                              className="button button-secondary"
                              aria-label={`Retry now: ${email.subject}`}
                              aria-disabled={Boolean(retrying)}
                            >
                              {retrying === email.id ? "Sending…" : "Retry now"}
                            </button>
                          </Form>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      )}
      <Pagination
        page={emails.page}
        pages={emails.pages}
        total={emails.total}
        search={search}
        label="Pages of e-mails"
      />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
