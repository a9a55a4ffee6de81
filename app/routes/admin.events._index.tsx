import { Link } from "react-router";
import type { Route } from "./+types/admin.events._index";
import { ErrorPage } from "~/components/layout/error-page";
import { salesByEvent } from "~/features/booking/booking.server";
import { EventSeatsTable, seatFigures, type EventSeatsRow } from "~/features/events/components/event-seats-table";
import { useLiveRevalidation } from "~/features/events/components/use-live-revalidation";
import { listEvents } from "~/features/events/events.server";
import { isCurrent } from "~/features/events/status";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { seatsByEvent } from "~/infra/db/seats.server";
import { pageWork } from "~/infra/http/page.server";

// /admin/events: every event, current, past and test, with its seats, the door and the money,
// following sales live while the page is open.
export const loader = pageWork("The staff events page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request);
  const { db, clock } = context.services;
  const now = clock.now();
  const [events, seats, sales] = await Promise.all([listEvents(db), seatsByEvent(db, now), salesByEvent(db)]);
  const rows = events.map((event) => ({
    ...seatFigures(event, seats[event.id]),
    checkedIn: sales[event.id]?.checkedIn ?? 0,
    takenPence: sales[event.id]?.takenPence ?? 0,
    group: event.isTest ? ("test" as const) : isCurrent(event, now) ? ("current" as const) : ("past" as const),
  }));
  const soonestFirst = (a: { eventDate: string }, b: { eventDate: string }) => a.eventDate.localeCompare(b.eventDate);
  return {
    current: rows.filter((row) => row.group === "current").sort(soonestFirst),
    past: rows.filter((row) => row.group === "past").sort((a, b) => soonestFirst(b, a)),
    test: rows.filter((row) => row.group === "test").sort(soonestFirst),
  };
});

export const meta: Route.MetaFunction = () => adminMeta("Events");

export default function AdminEvents({ loaderData }: Route.ComponentProps) {
  useLiveRevalidation();
  return (
    <main id="main" className="page">
      <h1>Events</h1>
      <p>
        <Link to="/admin/events/new" className="button">
          New event
        </Link>
      </p>
      <EventTable id="current-events" title="Current events" empty="No events are on sale." rows={loaderData.current} />
      <EventTable id="past-events" title="Past events" empty="No past events." rows={loaderData.past} />
      <EventTable id="test-events" title="Test events" empty="No test events." rows={loaderData.test} />
    </main>
  );
}

function EventTable({ id, title, empty, rows }: { id: string; title: string; empty: string; rows: EventSeatsRow[] }) {
  return (
    <section className="section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {rows.length === 0 ? <p>{empty}</p> : <EventSeatsTable rows={rows} money />}
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
