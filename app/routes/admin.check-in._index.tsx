import { Link } from "react-router";
import type { Route } from "./+types/admin.check-in._index";
import { ErrorPage } from "~/components/layout/error-page";
import { listEvents } from "~/features/events/events.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";
import { londonDate, londonDay, londonTime } from "~/lib/london-time";

const recentDays = 30;

// /admin/check-in: pick the event at the door, today's first, then those to come, then the last month's.
export const loader = pageWork("The check-in page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "checkIn");
  const { clock } = context.services;
  const now = clock.now();
  const today = londonDay(now);
  const since = londonDay(new Date(now.getTime() - recentDays * 86_400_000));
  const events = (await listEvents(context.services))
    .filter((event) => event.ticketCostPence !== null)
    .map((event) => ({
      id: event.id,
      name: event.name,
      eventDate: event.eventDate,
      isTest: event.isTest,
      day: londonDay(event.eventDate),
    }));
  const soonestFirst = (a: { eventDate: string }, b: { eventDate: string }) => a.eventDate.localeCompare(b.eventDate);
  return {
    today: events.filter((e) => e.day === today).sort(soonestFirst),
    upcoming: events.filter((e) => e.day > today).sort(soonestFirst),
    recent: events.filter((e) => e.day < today && e.day >= since).sort((a, b) => soonestFirst(b, a)),
  };
});

export const meta: Route.MetaFunction = () => adminMeta("Check-in");

type Row = Route.ComponentProps["loaderData"]["today"][number];

export default function CheckInEvents({ loaderData: { today, upcoming, recent } }: Route.ComponentProps) {
  return (
    <main id="main" className="page narrow">
      <h1>Check-in</h1>
      <p>Choose the event at the door. Its page keeps working on this phone if the signal goes.</p>
      <EventChoice id="check-in-today" title="Today" empty="No events today." rows={today} large />
      <EventChoice id="check-in-upcoming" title="Coming up" empty="No events to come." rows={upcoming} />
      <EventChoice id="check-in-recent" title={`The last ${recentDays} days`} empty="None." rows={recent} />
    </main>
  );
}

function EventChoice({
  id,
  title,
  empty,
  rows,
  large = false,
}: {
  id: string;
  title: string;
  empty: string;
  rows: Row[];
  large?: boolean;
}) {
  return (
    <section className="section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {rows.length === 0 ? (
        <p>{empty}</p>
      ) : (
        <ul className={large ? "door-events door-events-large" : "door-events"}>
          {rows.map((event) => (
            <li key={event.id}>
              <Link to={`/admin/check-in/${event.id}`}>
                <span className="door-events-name">{event.name}</span>{" "}
                <span className="door-events-date">
                  {londonDate(event.eventDate)}, {londonTime(event.eventDate)}
                </span>
                {event.isTest ? <span className="badge">Test event</span> : null}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
