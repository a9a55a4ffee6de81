import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/admin.regular-giving._index";
import { ErrorPage } from "~/components/layout/error-page";
import { Field } from "~/components/ui/field";
import { Pagination } from "~/components/ui/pagination";
import { BusyButton } from "~/components/ui/spinner";
import { TableScroll } from "~/components/ui/table-scroll";
import { useQuery } from "~/components/ui/use-query";
import { sendAnnualStatements, statementsStanding } from "~/features/donations/annual-statements.server";
import { regularGiftFilters, regularGiftStatusLabels, type RegularGiftFilter } from "~/features/donations/schema";
import { regularGivingPage, type StaffRegularGift } from "~/features/donations/staff-regular-gifts.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { answerForm } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { londonDate, londonWhen } from "~/lib/london-time";
import { plural } from "~/lib/plural";
import { FormNotice } from "~/components/ui/form-notice";
import { useNoticeFocus } from "~/components/ui/use-notice-focus";
import { formatPounds } from "~/lib/money";
import { requestedPage } from "~/lib/pagination";

// /admin/regular-giving: monthly giving at a glance (issue 34): the gifts running and what they
// give each month, the last twelve months, the gifts whose payment is failing, then every gift,
// newest first, found by the donor's name or e-mail and filtered by state; a CSV of them all.
export const loader = pageWork("The monthly giving page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "money");
  const search = new URL(request.url).searchParams;
  const q = (search.get("q") ?? "").slice(0, 200);
  const asked = search.get("status") ?? "all";
  const status: RegularGiftFilter = (regularGiftFilters as readonly string[]).includes(asked)
    ? (asked as RegularGiftFilter)
    : "all";
  const now = context.services.clock.now();
  const [page, statements] = await Promise.all([
    regularGivingPage(context.services.db, { q, status }, requestedPage(search.get("page")), now),
    statementsStanding(context.services.db, now),
  ]);
  return { ...page, statements, values: { q, status } };
});

export const action = pageWork("Sending the donors' statements", async ({ request, context }: Route.ActionArgs) => {
  const staff = await requireStaffPage(context.services, request, "money");
  const { services } = context;
  return answerForm(request, {
    statements: async () => {
      const sent = await sendAnnualStatements(services, staff, services.clock.now());
      return {
        message:
          sent.queued === 0 && sent.already === 0
            ? "No monthly donor gave in that tax year: there is no statement to send."
            : `${plural(sent.queued, "statement")} on ${sent.queued === 1 ? "its" : "their"} way${sent.already > 0 ? `; ${plural(sent.already, "donor")} had theirs already, and ${sent.already === 1 ? "is" : "are"} not sent it twice` : ""}.`,
      };
    },
  });
});

export const meta: Route.MetaFunction = () => adminMeta("Monthly giving");

export default function AdminRegularGiving({
  loaderData: { summary, gifts, statements, values },
  actionData,
}: Route.ComponentProps) {
  const search = useQuery();
  const notice = useNoticeFocus(actionData);
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/admin/regular-giving";
  const thisMonth = summary.months[0]!;
  const lastMonth = summary.months[1]!;
  return (
    <main id="main" className="page">
      <h1>Monthly giving</h1>
      {actionData ? (
        <FormNotice ok={actionData.ok} focusRef={notice}>
          {actionData.message}
        </FormNotice>
      ) : null}
      <dl className="donation-details" aria-label="Monthly giving now">
        <dt>Monthly gifts running</dt>
        <dd>
          {summary.active + summary.failing}
          {summary.failing > 0 ? ` (${summary.failing} with a failed payment)` : ""}
          {summary.paused > 0 ? `; ${summary.paused} paused by the donor` : ""}
        </dd>
        <dt>Given each month</dt>
        <dd>{formatPounds(summary.monthlyPence)}</dd>
        <dt>Received this month</dt>
        <dd>
          {formatPounds(thisMonth.receivedPence)} ({lastMonth.label}: {formatPounds(lastMonth.receivedPence)})
        </dd>
      </dl>
      <p>
        <a href="/admin/regular-giving.csv" download>
          Download every monthly gift (CSV)
        </a>
        . Each payment is also a donation on <Link to="/admin/donations">Donations</Link>, and in the Gift Aid claim
        when its donor declared.
      </p>

      <section className="section" aria-labelledby="failing-heading">
        <h2 id="failing-heading">Failed payments</h2>
        {summary.failingNow.length === 0 ? (
          <p>No monthly gift has a failed payment.</p>
        ) : (
          <>
            <p>
              The card was refused; the card payment service tries it again over the next days, and the donor has been
              told how to change their card.
            </p>
            <GiftsTable gifts={summary.failingNow} caption="Monthly gifts with a failed payment" />
          </>
        )}
      </section>

      <section className="section" aria-labelledby="months-heading">
        <h2 id="months-heading">The last twelve months</h2>
        <TableScroll label="Monthly giving by month">
          <table className="admin-table">
            <caption>Monthly gifts received, and the gifts running at each month&apos;s end</caption>
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col">Received</th>
                <th scope="col">Payments</th>
                <th scope="col">Gifts running</th>
              </tr>
            </thead>
            <tbody>
              {summary.months.map((month) => (
                <tr key={month.month}>
                  <th scope="row">{month.label}</th>
                  <td data-label="Received">{formatPounds(month.receivedPence)}</td>
                  <td data-label="Payments">{month.payments}</td>
                  <td data-label="Gifts running">{month.running}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>

      <section className="section" aria-labelledby="statements-heading">
        <h2 id="statements-heading">Statements for the tax year {statements.year.label}</h2>
        <p>
          Each monthly donor can be sent a statement of their gifts from {londonDate(statements.year.start)} to{" "}
          {londonDate(new Date(Date.parse(statements.year.end) - 12 * 3_600_000))}, and the Gift Aid on them. Each donor
          gets theirs once, however often this is pressed.
        </p>
        <p>
          {plural(statements.donors, "monthly donor")} gave in that tax year.
          {statements.lastSent
            ? ` Last sent ${londonWhen(statements.lastSent.at)} by ${statements.lastSent.by}.`
            : " Not sent yet."}
        </p>
        {statements.donors > 0 ? <StatementsForm label={statements.year.label} /> : null}
      </section>

      <section className="section" aria-labelledby="gifts-heading">
        <h2 id="gifts-heading">Monthly gifts</h2>
        <Form method="get" className="donation-filters" aria-label="Find monthly gifts" role="search">
          <Field
            id="filter-q"
            label="Name or e-mail"
            hint="Part of the donor's name or e-mail address."
            className="donation-filters-search"
            input={{ name: "q", type: "search", defaultValue: values.q, autoComplete: "off", spellCheck: false }}
          />
          <Field id="filter-status" label="State" select={{ name: "status", defaultValue: values.status }}>
            <option value="all">All</option>
            {regularGiftFilters
              .filter((value) => value !== "all")
              .map((value) => (
                <option key={value} value={value}>
                  {regularGiftStatusLabels[value as Exclude<RegularGiftFilter, "all">]}
                </option>
              ))}
          </Field>
          <div className="donation-filters-actions">
            <BusyButton busy={loading} busyLabel="Showing…">
              Show monthly gifts
            </BusyButton>
            <Link to="/admin/regular-giving" className="button button-secondary">
              Clear filters
            </Link>
          </div>
        </Form>
        {gifts.total === 0 ? (
          <p role="status">
            {values.q.trim() || values.status !== "all"
              ? "No monthly gift matches these filters."
              : "Nobody gives monthly yet. Donors choose Give monthly on the donation page."}
          </p>
        ) : (
          <>
            <p role="status">{gifts.total === 1 ? "1 monthly gift" : `${gifts.total} monthly gifts`}, newest first.</p>
            <GiftsTable gifts={gifts.rows} caption="Monthly gifts" />
          </>
        )}
        <Pagination
          page={gifts.page}
          pages={gifts.pages}
          total={gifts.total}
          search={search}
          label="Pages of monthly gifts"
        />
      </section>
    </main>
  );
}

function StatementsForm({ label }: { label: string }) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "statements";
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="statements" />
      <BusyButton busy={sending} busyLabel="Sending…" className="button">
        Send the {label} statements
      </BusyButton>
    </Form>
  );
}

function GiftsTable({ gifts, caption }: { gifts: StaffRegularGift[]; caption: string }) {
  return (
    <TableScroll label={caption}>
      <table className="admin-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Donor</th>
            <th scope="col">Each month</th>
            <th scope="col">State</th>
            <th scope="col">Paid by</th>
            <th scope="col">Started</th>
            <th scope="col">Paid so far</th>
            <th scope="col">Gift Aid</th>
          </tr>
        </thead>
        <tbody>
          {gifts.map((gift) => (
            <tr key={gift.id}>
              <th scope="row">
                <Link to={`/admin/regular-giving/${gift.id}`}>{gift.donorName}</Link>
                <br />
                {gift.email}
              </th>
              <td data-label="Each month">
                {formatPounds(gift.amountPence)} on {gift.day}
              </td>
              <td data-label="State">{gift.statusLabel}</td>
              <td data-label="Paid by">
                {gift.paidBy}
                {gift.mandate ? (
                  <>
                    <br />
                    Instruction {gift.mandate.reference}: {gift.mandate.statusLabel}
                  </>
                ) : null}
              </td>
              <td data-label="Started">{londonDate(gift.startedAt)}</td>
              <td data-label="Paid so far">
                {formatPounds(gift.paidPence)} ({gift.payments === 1 ? "1 payment" : `${gift.payments} payments`})
              </td>
              <td data-label="Gift Aid">{gift.giftAid ? "Declared" : "No"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
