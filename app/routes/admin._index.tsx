import { Link } from "react-router";
import type { Route } from "./+types/admin._index";
import { ErrorPage } from "~/components/layout/error-page";
import { listEvents } from "~/features/events/events.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { seatsByEvent } from "~/infra/db/seats.server";
import { pageWork } from "~/infra/http/page.server";
import { londonDate, londonDay, londonTime } from "~/lib/london-time";

// /admin: today's and upcoming events, soonest first, with their seats sold, held and left.
export const loader = pageWork("The staff home page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request);
  const { db, clock } = context.services;
  const now = clock.now();
  const today = londonDay(now);
  const [events, seats] = await Promise.all([listEvents(db), seatsByEvent(db, now)]);
  const upcoming = events
    .filter((event) => londonDay(event.eventDate) >= today)
    .sort((a, b) => a.eventDate.localeCompare(b.eventDate))
    .map((event) => {
      const { total, sold, held } = seats[event.id] ?? { total: event.totalAvailableTickets, sold: 0, held: 0 };
      return {
        id: event.id,
        name: event.name,
        eventDate: event.eventDate,
        isToday: londonDay(event.eventDate) === today,
        isTest: event.isTest,
        onlineSales: event.ticketCostPence !== null,
        total,
        sold,
        held,
        left: Math.max(0, total - sold - held),
      };
    });
  return { upcoming };
});

export const meta: Route.MetaFunction = () => adminMeta("Staff home");

export default function AdminHome({ loaderData: { upcoming } }: Route.ComponentProps) {
  return (
    <main id="main" className="page">
      <h1>Staff home</h1>
      <nav aria-label="Staff pages">
        <ul className="admin-links">
          <li>
            <Link to="/admin/events">Events</Link>
          </li>
        </ul>
      </nav>
      <section className="section" aria-labelledby="upcoming-heading">
        <h2 id="upcoming-heading">Today and upcoming</h2>
        {upcoming.length === 0 ? (
          <p>There are no events today or to come.</p>
        ) : (
          <div className="admin-table-wrap">
            <table className="admin-table">
              <caption className="visually-hidden">Events from today on, soonest first</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Date</th>
                  <th scope="col">Sold</th>
                  <th scope="col">Held</th>
                  <th scope="col">Left</th>
                </tr>
              </thead>
              <tbody>
                {upcoming.map((event) => (
                  <tr key={event.id}>
                    <th scope="row">
                      {event.name}
                      {event.isToday ? <span className="badge">Today</span> : null}
                      {event.isTest ? <span className="badge">Test event</span> : null}
                    </th>
                    <td>
                      {londonDate(event.eventDate)} {londonTime(event.eventDate)}
                    </td>
                    <td>{event.onlineSales ? event.sold : "—"}</td>
                    <td>{event.onlineSales ? event.held : "—"}</td>
                    <td>{event.onlineSales ? `${event.left} of ${event.total}` : "Sold elsewhere"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
