import { Link } from "react-router";
import type { Route } from "./+types/admin.events.id.messages.id";
import { ErrorPage } from "~/components/layout/error-page";
import { FormNotice } from "~/components/ui/form-notice";
import { leftLabel, mailMode } from "~/features/emails/mail-mode";
import { MessageRecipients } from "~/features/messages/components/message-recipients";
import { eventMessage } from "~/features/messages/messages.server";
import { can } from "~/features/staff/roles";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { Breadcrumbs } from "~/features/staff/components/breadcrumbs";
import { requireStaffPage } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";

// /admin/events/:id/messages/:messageId: one message to an event's people, its text, and how its
// e-mails stand, with to whom each went for staff who may see buyers (docs/decisions/095-messages-to-attendees.md).
export const loader = pageWork(
  "A message to an event's people",
  async ({ request, context, params }: Route.LoaderArgs) => {
    const staff = await requireStaffPage(context.services, request, "events");
    const message = await eventMessage(context.services.db, params.id, params.messageId, can(staff.role, "bookings"));
    const sent = new URL(request.url).searchParams.get("sent");
    return {
      eventId: params.id,
      message,
      sentLabel: leftLabel(mailMode(context.services)),
      notice:
        sent === "now"
          ? "The message is on its way: its e-mails are being sent one by one."
          : sent === "again"
            ? "This message was sent already: nothing was sent twice."
            : null,
    };
  },
);

export const meta: Route.MetaFunction = ({ data }) => adminMeta(data ? `Message: ${data.message.subject}` : "Message");

export default function EventMessagePage({ loaderData }: Route.ComponentProps) {
  const { eventId, message, sentLabel, notice } = loaderData;
  return (
    <main id="main" className="page">
      <Breadcrumbs via={[{ label: message.eventName, to: `/admin/events/${eventId}` }]} here={message.subject} />
      <h1>{message.subject}</h1>
      {notice ? <FormNotice ok>{notice}</FormNotice> : null}
      <MessageRecipients message={message} sentLabel={sentLabel} />
      <p>
        <Link to={`/admin/events/${eventId}/messages/${message.id}`}>Refresh the counts</Link>
      </p>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
