import { Link } from "react-router";
import type { Route } from "./+types/admin._index";
import { ErrorPage } from "~/components/layout/error-page";
import { Pagination } from "~/components/ui/pagination";
import { useQuery } from "~/components/ui/use-query";
import { IncomeSection } from "~/features/donations/components/income-section";
import { claimSummary, donationsReadyToClaim } from "~/features/donations/gift-aid-claims.server";
import { incomeChart } from "~/features/donations/income-chart.server";
import { failingRegularGifts } from "~/features/donations/staff-regular-gifts.server";
import { unsentEmails } from "~/features/emails/emails.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { staffHome, type HomeEvent, type Takings } from "~/features/staff/home.server";
import { can } from "~/features/staff/roles";
import { requireStaffPage } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";
import { currentProblems } from "~/infra/signals.server";
import { londonDate, londonStamp } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { requestedPage, slicePage } from "~/lib/pagination";

// /admin: "what needs me?" (decision 073). The site's own problems, then what is waiting for someone
// (e-mails failing, Gift Aid to claim, invitations, events to watch), what is new since this member
// last signed in, today's and this week's tickets and gifts, and the events from today on. Each part
// only for a member whose role may open it.
export const loader = pageWork("The staff home page", async ({ request, context }: Route.LoaderArgs) => {
  const staff = await requireStaffPage(context.services, request, "staff-home");
  const { services } = context;
  const { db, clock, config } = services;
  const now = clock.now();
  const site = can(staff.role, "site");
  const money = can(staff.role, "money");
  // Read once for the to-do line and the income chart's Gift Aid waiting.
  const readyToClaim = money ? donationsReadyToClaim(services) : null;
  const [home, giftAid, failingGifts, emails, problems, income] = await Promise.all([
    staffHome(services, staff, now),
    readyToClaim ? readyToClaim.then(claimSummary) : null,
    money ? failingRegularGifts(db) : 0,
    site ? unsentEmails(services) : null,
    site ? currentProblems(db, now, { backupsSetUp: Boolean(config.backups.dir) }) : [],
    // The last 12 months' income, drawn on the server (decision 094), for who may see money.
    readyToClaim ? incomeChart(services, now, readyToClaim) : null,
  ]);
  return {
    ...home,
    events: home.events ? slicePage(home.events, requestedPage(new URL(request.url).searchParams.get("page"))) : null,
    toWatch: home.events?.filter((event) => event.sale !== null) ?? [],
    giftAid,
    failingGifts,
    income,
    emails,
    problems,
    // Stored page content the site passed over because it no longer passes the schema (decision 031).
    contentWarnings: can(staff.role, "pages") ? services.contentStore.warnings() : [],
    /** A live site that makes no backups by itself is told so, gently: it may copy them another way. */
    backupsNotSetUp: site && config.production && !config.backups.dir,
  };
});

export const meta: Route.MetaFunction = () => adminMeta("Staff home");

/** "1 booking", "3 bookings". */
function counted(n: number, one: string, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

const when = (iso: string) => londonStamp(iso);

function saleWords(event: HomeEvent): string {
  if (event.sale === "sold-out") return "sold out";
  if (event.sale === "fast") return `selling fast: ${event.sold} of ${event.total} sold`;
  return `no tickets sold in the last 7 days (${event.sold} of ${event.total} sold)`;
}

function TakingsCard({ label, span, takings }: { label: string; span: string; takings: Takings }) {
  return (
    <li className="home-card">
      <h3>{label}</h3>
      <p className="home-card-span">{span}</p>
      <p>
        {counted(takings.tickets, "ticket")} in {counted(takings.bookings, "booking")}
        {takings.ticketPence !== null ? `: ${formatPounds(takings.ticketPence)}` : ""}
      </p>
      {takings.gifts !== null ? (
        <p>
          {counted(takings.gifts, "gift")}
          {takings.giftPence !== null ? `: ${formatPounds(takings.giftPence)}` : ""}
        </p>
      ) : null}
    </li>
  );
}

export default function AdminHome({ loaderData }: Route.ComponentProps) {
  const { periods, sinceLastVisit, invitationsWaiting, events, toWatch, giftAid, emails, problems } = loaderData;
  const { failingGifts } = loaderData;
  const { contentWarnings, backupsNotSetUp, income } = loaderData;
  const search = useQuery();
  const toDo = [
    ...(emails && emails.failing > 0
      ? [
          <Link to="/admin/emails?status=failing">
            {counted(emails.failing, "e-mail is", "e-mails are")} failing to go
          </Link>,
        ]
      : []),
    ...(emails && emails.waiting > 0
      ? [
          <Link to="/admin/emails?status=waiting">
            {counted(emails.waiting, "e-mail is", "e-mails are")} waiting to go
          </Link>,
        ]
      : []),
    ...(giftAid && giftAid.count > 0
      ? [
          <>
            <Link to="/admin/gift-aid">{formatPounds(giftAid.giftAidPence)} of Gift Aid is ready to claim</Link> on{" "}
            {counted(giftAid.count, "donation")} ({formatPounds(giftAid.totalPence)})
          </>,
        ]
      : []),
    ...(failingGifts > 0
      ? [
          <Link to="/admin/regular-giving?status=failing">
            {counted(failingGifts, "monthly gift has", "monthly gifts have")} a failed payment
          </Link>,
        ]
      : []),
    ...(invitationsWaiting
      ? [<Link to="/admin/staff">{counted(invitationsWaiting, "invitation")} to join the staff not yet used</Link>]
      : []),
    ...toWatch.map((event) => (
      <>
        <Link to={`/admin/events/${event.id}`}>{event.name}</Link> ({londonDate(event.eventDate)}): {saleWords(event)}
      </>
    )),
  ];
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

      {emails || giftAid || invitationsWaiting !== null || events ? (
        <section className="section home-section" aria-labelledby="to-do-heading">
          <h2 id="to-do-heading">Waiting for you</h2>
          {toDo.length === 0 ? (
            <p>Nothing is waiting: no e-mail stuck, no Gift Aid to claim, no event to worry about.</p>
          ) : (
            <ul className="home-to-do">
              {toDo.map((item, index) => (
                <li key={index}>{item}</li>
              ))}
            </ul>
          )}
        </section>
      ) : null}

      {sinceLastVisit ? (
        <section className="section home-section" aria-labelledby="since-heading">
          <h2 id="since-heading">{sinceLastVisit.returning ? "Since you last signed in" : "In the last 7 days"}</h2>
          <p>
            {sinceLastVisit.returning
              ? `You last signed in on ${sinceLastVisit.since}.`
              : `This is your first time signed in, so here is what came in since ${sinceLastVisit.since}.`}
          </p>
          <ul className="home-since">
            {sinceLastVisit.bookings ? (
              <li>
                <Link to="/admin/bookings">{counted(sinceLastVisit.bookings.count, "new booking")}</Link> (
                {counted(sinceLastVisit.bookings.tickets, "ticket")})
              </li>
            ) : null}
            {sinceLastVisit.signUps !== null ? (
              <li>
                <Link to="/admin/volunteers">{counted(sinceLastVisit.signUps, "volunteer sign-up")}</Link>
              </li>
            ) : null}
            {sinceLastVisit.gifts ? (
              <li>
                <Link to="/admin/donations">{counted(sinceLastVisit.gifts.count, "gift")}</Link> (
                {formatPounds(sinceLastVisit.gifts.pence)})
              </li>
            ) : null}
          </ul>
        </section>
      ) : null}

      {periods ? (
        <section className="section home-section" aria-labelledby="takings-heading">
          <h2 id="takings-heading">{periods[0]?.takings.gifts !== null ? "Tickets and gifts" : "Tickets sold"}</h2>
          <p className="field-hint">
            Counted when paid, London time; weeks start on Monday. Test events are left out, and later refunds are not
            taken off.
          </p>
          <ul className="home-cards">
            {periods.map((period) => (
              <TakingsCard key={period.label} {...period} />
            ))}
          </ul>
        </section>
      ) : null}

      {income ? <IncomeSection {...income} /> : null}

      {events ? (
        <section className="section home-section" aria-labelledby="upcoming-heading">
          <h2 id="upcoming-heading">Today and upcoming</h2>
          {events.total === 0 ? (
            <p>There are no events today or to come.</p>
          ) : (
            <ul className="home-events" aria-label="Events from today on, soonest first">
              {events.rows.map((event) => (
                <li key={event.id} className="home-card">
                  <h3>
                    <Link to={`/admin/events/${event.id}`}>{event.name}</Link>
                  </h3>
                  <p className="home-card-span">{when(event.eventDate)}</p>
                  {event.today || event.isTest || event.cancelled || event.sale ? (
                    <p>
                      {event.today ? <span className="badge">Today</span> : null}
                      {event.isTest ? <span className="badge">Test event</span> : null}
                      {event.cancelled ? <span className="badge">Cancelled</span> : null}
                      {event.sale === "sold-out" ? <span className="badge">Sold out</span> : null}
                      {event.sale === "fast" ? <span className="badge">Selling fast</span> : null}
                      {event.sale === "stalled" ? <span className="badge">No sales in 7 days</span> : null}
                    </p>
                  ) : null}
                  {event.onlineSales ? (
                    <dl className="home-seats">
                      <div>
                        <dt>Sold</dt>
                        <dd>{event.sold}</dd>
                      </div>
                      <div>
                        <dt>Held</dt>
                        <dd>{event.held}</dd>
                      </div>
                      <div>
                        <dt>Left</dt>
                        <dd>
                          {event.left} of {event.total}
                        </dd>
                      </div>
                    </dl>
                  ) : (
                    <p>Tickets sold elsewhere</p>
                  )}
                </li>
              ))}
            </ul>
          )}
          <Pagination
            page={events.page}
            pages={events.pages}
            total={events.total}
            search={search}
            label="Pages of events"
          />
        </section>
      ) : null}
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
