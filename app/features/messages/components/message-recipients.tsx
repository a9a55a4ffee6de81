import { TableScroll } from "~/components/ui/table-scroll";
import { londonWhen } from "~/lib/london-time";
import { plural } from "~/lib/plural";
import type { MessageRow } from "./event-messages";

// One message's page (docs/decisions/095-messages-to-attendees.md): to whom, when, by whom, its
// text, how its e-mails stand, and each e-mail's recipient for staff who may see buyers.

export interface MessageDetail extends MessageRow {
  body: string;
  recipients: { id: string; to: string | null; status: "sent" | "failed" | "waiting" }[] | null;
}

export function MessageRecipients({ message, sentLabel }: { message: MessageDetail; sentLabel: string }) {
  const statusWords = { sent: sentLabel, failed: "Failed, to be tried again", waiting: "Waiting" } as const;
  // A person erased before their e-mail went takes it out of the outbox: the count addressed stays.
  const erasedUnsent = Math.max(0, message.addressed - message.sent - message.failed - message.waiting);
  return (
    <>
      <dl className="facts">
        <div>
          <dt>To</dt>
          <dd>
            {message.audience} ({plural(message.addressed, "e-mail")})
          </dd>
        </div>
        <div>
          <dt>Sent</dt>
          <dd>
            {londonWhen(message.sentAt)} by {message.by}
          </dd>
        </div>
        <div>
          <dt>{sentLabel}</dt>
          <dd>{message.sent}</dd>
        </div>
        <div>
          <dt>Failed</dt>
          <dd>{message.failed}</dd>
        </div>
        <div>
          <dt>Waiting</dt>
          <dd>{message.waiting}</dd>
        </div>
        {erasedUnsent > 0 ? (
          <div>
            <dt>Erased before sending</dt>
            <dd>{erasedUnsent}</dd>
          </div>
        ) : null}
      </dl>
      <section className="section" aria-labelledby="message-text-title">
        <h2 id="message-text-title">Text</h2>
        <pre className="email-text" tabIndex={0} role="region" aria-label="The message's text">
          {message.body}
        </pre>
      </section>
      {message.recipients ? (
        <section className="section" aria-labelledby="message-recipients-title">
          <h2 id="message-recipients-title">Recipients</h2>
          <TableScroll label="Recipients">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">To</th>
                  <th scope="col">E-mail</th>
                </tr>
              </thead>
              <tbody>
                {message.recipients.map((recipient) => (
                  <tr key={recipient.id}>
                    <td data-label="To">{recipient.to ?? "Erased at the person's request"}</td>
                    <td data-label="E-mail">{statusWords[recipient.status]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </section>
      ) : null}
    </>
  );
}
