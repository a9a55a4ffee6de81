import { Link } from "react-router";
import type { ReminderProgress } from "../reminders.server";
import { londonWhen } from "~/lib/london-time";
import { plural } from "~/lib/plural";
import { reminderLabel } from "~/lib/reminders";

/**
 * Where an event's reminder e-mails stand (decision 096): when they go, to how many bookings so
 * far; once gone, how many were sent, are waiting or could not be sent yet.
 */
export function EventReminders({ progress, now }: { progress: ReminderProgress; now: string }) {
  let status;
  if (progress.hours === null || progress.at === null) {
    status = <p>This event sends no reminder. To send one, choose a time under Reminder e-mail in Edit event.</p>;
  } else if (progress.at > now) {
    status = (
      <p>
        Every booking made by then is e-mailed a reminder {reminderLabel(progress.hours)} the event, on{" "}
        {londonWhen(progress.at)}: {plural(progress.bookings, "booking", "bookings")} so far.
      </p>
    );
  } else if (progress.started) {
    // The event has begun: what went is told, and what did not will not go now.
    const unsent = Math.max(0, progress.bookings - progress.sent);
    status = (
      <p>
        The reminder was due {reminderLabel(progress.hours)} the event, on {londonWhen(progress.at)}: sent to{" "}
        {progress.sent} of {plural(progress.bookings, "booking", "bookings")}.
        {unsent > 0 ? ` ${plural(unsent, "booking was", "bookings were")} not reminded before the event began.` : ""}
      </p>
    );
  } else {
    status = (
      <>
        <p>
          The reminder was due {reminderLabel(progress.hours)} the event, on {londonWhen(progress.at)}, for{" "}
          {plural(progress.bookings, "booking", "bookings")}.
        </p>
        <dl className="figures">
          <div>
            <dt>Sent</dt>
            <dd>{progress.sent}</dd>
          </div>
          <div>
            <dt>Waiting</dt>
            <dd>{Math.max(0, progress.bookings - progress.sent - progress.failed)}</dd>
          </div>
          <div>
            <dt>Not sent yet</dt>
            <dd>{progress.failed}</dd>
          </div>
        </dl>
        {progress.failed > 0 ? (
          <p>
            The site tries again by itself; <Link to="/admin/emails">E-mails</Link> says why they have not gone.
          </p>
        ) : null}
      </>
    );
  }
  return (
    <section className="section narrow event-reminders" aria-labelledby="event-reminders-title">
      <h2 id="event-reminders-title">Reminders</h2>
      {status}
    </section>
  );
}
