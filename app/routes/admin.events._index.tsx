import { Link } from "react-router";
import type { Route } from "./+types/admin.events._index";
import { ErrorPage } from "~/components/layout/error-page";
import { Pagination } from "~/components/ui/pagination";
import { useQuery } from "~/components/ui/use-query";
import { salesByEvent } from "~/features/booking/staff-bookings.server";
import { EventSeatsTable, seatFigures, type EventSeatsRow } from "~/features/events/components/event-seats-table";
import { useLiveRevalidation } from "~/features/events/components/use-live-revalidation";
import { listEvents } from "~/features/events/events.server";
import { isCurrent } from "~/features/events/status";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { seatsByEvent } from "~/infra/db/seats.server";
import { pageWork } from "~/infra/http/page.server";
import { requestedPage, slicePage, type Paged } from "~/lib/pagination";

type Group = "current" | "past" | "test";

// /admin/events: every event, current, past and test, with its seats, the door and the money,
// following sales live while the page is open.
export const loader = pageWork("The staff events page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "events");
  const { db, clock } = context.services;
  const now = clock.now();
  const [events, seats, sales] = await Promise.all([
    listEvents(context.services),
    seatsByEvent(db, now),
    salesByEvent(context.services),
  ]);
  const rows = events.map((event) => ({
    ...seatFigures(event, seats[event.id]),
    checkedIn: sales[event.id]?.checkedIn ?? 0,
    takenPence: sales[event.id]?.takenPence ?? 0,
    group: event.isTest ? ("test" as const) : isCurrent(event, now) ? ("current" as const) : ("past" as const),
    badges: event.cancelledAt ? ["Cancelled"] : [],
  }));
  const soonestFirst = (a: { eventDate: string }, b: { eventDate: string }) => a.eventDate.localeCompare(b.eventDate);
  // Each list is cut into pages of 50 (past events pile up over the years), each with its own ?param.
  const query = new URL(request.url).searchParams;
  const list = (group: Group, order: typeof soonestFirst) =>
    slicePage(rows.filter((row) => row.group === group).sort(order), requestedPage(query.get(group)));
  return {
    current: list("current", soonestFirst),
    past: list("past", (a, b) => soonestFirst(b, a)),
    test: list("test", soonestFirst),
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
      <EventTable group="current" title="Current events" empty="No events are on sale." list={loaderData.current} />
      <EventTable group="past" title="Past events" empty="No past events." list={loaderData.past} />
      <EventTable group="test" title="Test events" empty="No test events." list={loaderData.test} />
    </main>
  );
}

function EventTable({
  group,
  title,
  empty,
  list,
}: {
  group: Group;
  title: string;
  empty: string;
  list: Paged<EventSeatsRow>;
}) {
  const search = useQuery();
  const id = `${group}-events`;
  return (
    <section className="section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {list.total === 0 ? <p>{empty}</p> : <EventSeatsTable rows={list.rows} money />}
      <Pagination
        page={list.page}
        pages={list.pages}
        total={list.total}
        search={search}
        param={group}
        label={`Pages of ${title.toLowerCase()}`}
      />
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
