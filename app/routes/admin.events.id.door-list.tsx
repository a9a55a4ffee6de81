import type { Route } from "./+types/admin.events.id.door-list";
import { ErrorPage } from "~/components/layout/error-page";
import { TableScroll } from "~/components/ui/table-scroll";
import { allTickets } from "~/features/booking/tickets.server";
import { findEvent } from "~/features/events/events.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { Breadcrumbs } from "~/features/staff/components/breadcrumbs";
import { requireStaffPage } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";
import { onlyPlainTickets, ticketsInWords } from "~/lib/booking-items";
import { AppError } from "~/lib/errors";
import { londonDate, londonTime } from "~/lib/london-time";
import { plural } from "~/lib/plural";
import { answerLine } from "~/lib/questions";

// /admin/events/:id/door-list: every booking by name, to print and tick off at the door when no
// phone is to hand. The print stylesheet leaves only the list.
export const loader = pageWork("The door list", async ({ request, context, params }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "checkIn");
  const event = await findEvent(context.services, params.id);
  if (!event) throw new AppError("not-found", "There is no such event.");
  const tickets = (await allTickets(context.services, event.id, "name")).filter((t) => !t.refunded);
  return { event: { id: event.id, name: event.name, eventDate: event.eventDate }, tickets };
});

export const meta: Route.MetaFunction = ({ data }) => adminMeta(data ? `Door list: ${data.event.name}` : "Door list");

export default function DoorList({ loaderData: { event, tickets } }: Route.ComponentProps) {
  const people = tickets.reduce((sum, t) => sum + t.quantity, 0);
  // An event sold at one price has nothing to say by type; one with types says them (decision 082).
  const typed = tickets.some((t) => !onlyPlainTickets(t.types));
  // An event that asks questions lists each booking's answers (decision 083).
  const answered = tickets.some((t) => t.answers.length > 0);
  return (
    <main id="main" className="page door-list">
      <Breadcrumbs via={[{ label: event.name, to: `/admin/events/${event.id}` }]} here="Door list" />
      <h1>
        Door list: {event.name}{" "}
        <span className="door-when">
          {londonDate(event.eventDate)}, {londonTime(event.eventDate)}
        </span>
      </h1>
      <p>
        {plural(tickets.length, "booking")}, {plural(people, "person", "people")}.
      </p>
      <p className="print-hidden">
        <button type="button" className="button" onClick={() => window.print()}>
          Print
        </button>
      </p>
      {tickets.length === 0 ? (
        <p>No tickets are sold yet.</p>
      ) : (
        <TableScroll label="The door list">
          <table className="admin-table door-list-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Booking code</th>
                <th scope="col">Tickets</th>
                {typed ? <th scope="col">Ticket types</th> : null}
                {answered ? <th scope="col">Answers</th> : null}
                <th scope="col">Already in</th>
                <th scope="col">Arrived</th>
              </tr>
            </thead>
            <tbody>
              {tickets.map((t) => (
                <tr key={t.bookingRef}>
                  <th scope="row">{t.name}</th>
                  <td data-label="Booking code" className="booking-code">
                    {t.code}
                  </td>
                  <td data-label="Tickets">{t.quantity}</td>
                  {typed ? <td data-label="Ticket types">{ticketsInWords(t.types)}</td> : null}
                  {answered ? (
                    <td data-label="Answers">
                      {t.answers.length > 0 ? (
                        <ul className="answer-list">
                          {t.answers.map((answer) => (
                            <li key={`${answer.questionId}-${answer.attendee}`}>{answerLine(answer)}</li>
                          ))}
                        </ul>
                      ) : null}
                    </td>
                  ) : null}
                  <td data-label="Already in">{t.checkedIn}</td>
                  <td data-label="Arrived" aria-label="Arrived (to tick on paper)">
                    <span className="door-list-box" aria-hidden="true" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
