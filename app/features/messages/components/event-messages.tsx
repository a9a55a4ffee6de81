import { Link } from "react-router";
import { TableScroll } from "~/components/ui/table-scroll";
import { londonStamp } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { plural } from "~/lib/plural";
import type { GiftsAfterThankYou, MessageCounts, MessageSummary } from "../schema";

// An event's messages on its staff page (docs/decisions/095-messages-to-attendees.md): what was
// sent, to whom, by whom, and how its e-mails stand; the way to write another; the thank-you.

export type MessageRow = MessageSummary;

/** "298 sent, 1 failed, 1 waiting": how a message's e-mails stand, `sentLabel` true to the mail mode. */
export function countsWords(counts: MessageCounts, sentLabel: string): string {
  return `${counts.sent} ${sentLabel.toLowerCase()}, ${counts.failed} failed, ${counts.waiting} waiting`;
}

export function EventMessages({
  eventId,
  messages,
  thankYouOpen,
  gifts,
  sentLabel,
}: {
  eventId: string;
  messages: MessageRow[];
  thankYouOpen: boolean;
  gifts: GiftsAfterThankYou | null;
  /** "Sent", or "Written to the folder" without a mail server (decision 074). */
  sentLabel: string;
}) {
  return (
    <section className="section event-messages" aria-labelledby="event-messages-title">
      <h2 id="event-messages-title">Messages</h2>
      <p className="event-staff-links">
        <Link to={`/admin/events/${eventId}/messages/new`}>Write to attendees</Link>
        {thankYouOpen ? (
          <Link to={`/admin/events/${eventId}/messages/new?kind=thank-you`}>Thank those who came</Link>
        ) : null}
      </p>
      {gifts ? (
        <p>
          Gifts after the thank-you: {plural(gifts.count, "gift")}, {formatPounds(gifts.pence)}
        </p>
      ) : null}
      {gifts?.list && gifts.list.length > 0 ? (
        <TableScroll label="Gifts after the thank-you">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Donor</th>
                <th scope="col">Amount</th>
                <th scope="col">Paid</th>
              </tr>
            </thead>
            <tbody>
              {gifts.list.map((gift) => (
                <tr key={gift.id}>
                  <td data-label="Donor">
                    <Link to={`/admin/donations/${gift.id}`}>{gift.donorName}</Link>
                  </td>
                  <td data-label="Amount">{formatPounds(gift.amountPence)}</td>
                  <td data-label="Paid">{gift.paidAt ? londonStamp(gift.paidAt) : "–"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      {messages.length === 0 ? (
        <p>No message has been sent about this event.</p>
      ) : (
        <TableScroll label="Messages sent">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Subject</th>
                <th scope="col">To</th>
                <th scope="col">Sent</th>
                <th scope="col">By</th>
                <th scope="col">E-mails</th>
              </tr>
            </thead>
            <tbody>
              {messages.map((message) => (
                <tr key={message.id}>
                  <td data-label="Subject">
                    <Link to={`/admin/events/${eventId}/messages/${message.id}`}>{message.subject}</Link>
                  </td>
                  <td data-label="To">
                    {message.audience} ({plural(message.addressed, "e-mail")})
                  </td>
                  <td data-label="Sent">{londonStamp(message.sentAt)}</td>
                  <td data-label="By">{message.by}</td>
                  <td data-label="E-mails">{countsWords(message, sentLabel)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
