import { Link } from "react-router";
import type { Route } from "./+types/admin._index";
import { ErrorPage } from "~/components/layout/error-page";
import { Pagination } from "~/components/ui/pagination";
import { useQuery } from "~/components/ui/use-query";
import { EventSeatsTable, seatFigures } from "~/features/events/components/event-seats-table";
import { listEvents } from "~/features/events/events.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { seatsByEvent } from "~/infra/db/seats.server";
import { pageWork } from "~/infra/http/page.server";
import { currentProblems } from "~/infra/signals.server";
import { londonDay } from "~/lib/london-time";
import { requestedPage, slicePage } from "~/lib/pagination";

// /admin: what needs attention (the site's own problems, page content it passed over), then today's
// and upcoming events, soonest first, with their seats sold, held and left.
export const loader = pageWork("The staff home page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "staff-home");
  const { db, clock, config } = context.services;
  const now = clock.now();
  const today = londonDay(now);
  const [events, seats, problems] = await Promise.all([
    listEvents(context.services),
    seatsByEvent(db, now),
    currentProblems(db, now, { backupsSetUp: Boolean(config.backups.dir) }),
  ]);
  const upcoming = events
    .filter((event) => londonDay(event.eventDate) >= today)
    .sort((a, b) => a.eventDate.localeCompare(b.eventDate))
    .map((event) => ({
      ...seatFigures(event, seats[event.id]),
      badges: [
        ...(londonDay(event.eventDate) === today ? ["Today"] : []),
        ...(event.isTest ? ["Test event"] : []),
        ...(event.cancelledAt ? ["Cancelled"] : []),
      ],
    }));
  // Stored page content the site passed over because it no longer passes the schema (decision 031).
  const contentWarnings = context.services.contentStore.warnings();
  return {
    upcoming: slicePage(upcoming, requestedPage(new URL(request.url).searchParams.get("page"))),
    contentWarnings,
    problems,
    /** A live site that makes no backups by itself is told so, gently: it may copy them another way. */
    backupsNotSetUp: config.production && !config.backups.dir,
  };
});

export const meta: Route.MetaFunction = () => adminMeta("Staff home");

export default function AdminHome({
  loaderData: { upcoming, contentWarnings, problems, backupsNotSetUp },
}: Route.ComponentProps) {
  const search = useQuery();
  return (
    <main id="main" className="page">
      <h1>Staff home</h1>
      {problems.length > 0 ? (
        <section className="notice notice-error" aria-labelledby="problems-heading">
          <h2 id="problems-heading">The site needs attention</h2>
          <ul>
            {problems.map((problem) => (
              <li key={problem.kind}>{problem.problem}</li>
            ))}
          </ul>
          <p>
            <Link to="/admin/system">See the system page</Link>
          </p>
        </section>
      ) : null}
      {backupsNotSetUp ? (
        <p className="notice">
          The site makes no backups by itself: BACKUP_DIR is not set.{" "}
          <Link to="/admin/system">See the system page</Link>
        </p>
      ) : null}
      {contentWarnings.length > 0 ? (
        <section className="notice notice-error" aria-labelledby="content-warnings-heading">
          <h2 id="content-warnings-heading">Page content needs attention</h2>
          <ul>
            {contentWarnings.map((warning) => (
              <li key={warning.name}>
                Version {warning.number} of the {warning.name} content no longer fits the site&apos;s pages (
                {warning.issues.map((issue) => `${issue.path || "the content"}: ${issue.message}`).join("; ")}).
                Visitors see {warning.serving === null ? "the content file" : `version ${warning.serving}`} instead: put
                it right and publish it again.
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <nav aria-label="Staff pages">
        <ul className="admin-links">
          <li>
            <Link to="/admin/events">Events</Link>
          </li>
          <li>
            <Link to="/admin/check-in">Check-in</Link>
          </li>
          <li>
            <Link to="/admin/bookings">Bookings</Link>
          </li>
          <li>
            <Link to="/admin/donations">Donations</Link>
          </li>
          <li>
            <Link to="/admin/gift-aid">Gift Aid claims</Link>
          </li>
          <li>
            <Link to="/admin/volunteers">Volunteers</Link>
          </li>
          <li>
            <Link to="/admin/people">A person's data</Link>
          </li>
          <li>
            <Link to="/admin/emails">E-mails</Link>
          </li>
          <li>
            <Link to="/admin/staff">Staff</Link>
          </li>
          <li>
            <Link to="/admin/pages">Pages</Link>
          </li>
          <li>
            <Link to="/admin/settings">Settings</Link>
          </li>
          <li>
            <Link to="/admin/audit">Audit log</Link>
          </li>
          <li>
            <Link to="/admin/system">System</Link>
          </li>
        </ul>
      </nav>
      <section className="section" aria-labelledby="upcoming-heading">
        <h2 id="upcoming-heading">Today and upcoming</h2>
        {upcoming.total === 0 ? (
          <p>There are no events today or to come.</p>
        ) : (
          <EventSeatsTable rows={upcoming.rows} caption="Events from today on, soonest first" />
        )}
        <Pagination
          page={upcoming.page}
          pages={upcoming.pages}
          total={upcoming.total}
          search={search}
          label="Pages of events"
        />
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
