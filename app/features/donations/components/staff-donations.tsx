import { Form, Link, useNavigation } from "react-router";
import { Field } from "~/components/ui/field";
import { BusyButton } from "~/components/ui/spinner";
import { TableScroll } from "~/components/ui/table-scroll";
import { londonDate, londonStamp } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import type { ClaimDonation } from "../gift-aid-claims.server";
import { claimScheduleHeadings } from "../gift-aid";
import { donationStatusLabels, giftAidFilterLabels } from "../schema";
import type { StaffDonationView } from "../staff-donations.server";
import type { MonthTotal } from "../totals";

// The staff pages' pieces for donations and Gift Aid claims.

type FilterField = "from" | "to" | "giftAid" | "status" | "q";

/** The donations page's filters: a GET form, so a filtered list is a link staff can share. */
export function DonationFilterForm({
  values,
  errors,
}: {
  values: Record<FilterField, string>;
  errors: Partial<Record<FilterField, string>>;
}) {
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/admin/donations";
  const day = (name: "from" | "to", label: string) => (
    <Field
      id={`filter-${name}`}
      label={label}
      input={{ name, type: "date", defaultValue: values[name] }}
      error={errors[name]}
    />
  );
  return (
    <Form method="get" className="donation-filters" aria-label="Filter donations" role="search">
      <Field
        id="filter-q"
        label="Name or e-mail"
        hint="Part of the donor's name, or the start of their e-mail address."
        className="donation-filters-search"
        input={{ name: "q", type: "search", defaultValue: values.q, autoComplete: "off", spellCheck: false }}
      />
      {day("from", "From")}
      {day("to", "To")}
      <Field id="filter-gift-aid" label="Gift Aid" select={{ name: "giftAid", defaultValue: values.giftAid }}>
        {Object.entries(giftAidFilterLabels).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </Field>
      <Field id="filter-status" label="Status" select={{ name: "status", defaultValue: values.status }}>
        <option value="all">All</option>
        {Object.entries(donationStatusLabels).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </Field>
      <div className="donation-filters-actions">
        <BusyButton busy={loading} busyLabel="Showing…">
          Show donations
        </BusyButton>
        <Link to="/admin/donations" className="button button-secondary">
          Clear filters
        </Link>
      </div>
    </Form>
  );
}

/** Totals per London month of the listed donations that were paid and not refunded. */
export function MonthTotalsTable({ months }: { months: MonthTotal[] }) {
  if (months.length === 0) return <p>No paid donations match these filters.</p>;
  return (
    <TableScroll label="Table of totals per month">
      <table className="admin-table">
        <caption className="visually-hidden">Paid, unrefunded donations per month</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col">Donations</th>
            <th scope="col">Total</th>
            <th scope="col">Gift Aid to add</th>
          </tr>
        </thead>
        <tbody>
          {months.map((month) => (
            <tr key={month.month}>
              <th scope="row">{month.label}</th>
              <td data-label="Donations">{month.count}</td>
              <td data-label="Total">{formatPounds(month.totalPence)}</td>
              <td data-label="Gift Aid to add">{formatPounds(month.giftAidPence)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The donations, each linking to its own page. */
export function DonationsTable({ donations }: { donations: StaffDonationView[] }) {
  return (
    <TableScroll label="Table of donations">
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Donor</th>
            <th scope="col">Amount</th>
            <th scope="col">Status</th>
            <th scope="col">Gift Aid</th>
          </tr>
        </thead>
        <tbody>
          {donations.map((donation) => (
            <tr key={donation.id}>
              <td data-label="Date">{londonStamp(donation.date)}</td>
              <th scope="row">
                <Link to={`/admin/donations/${donation.id}`}>{donation.name}</Link>
                {donation.monthly ? (
                  <span className="donation-monthly">
                    Monthly{donation.monthly.directDebit ? " by Direct Debit" : ""}: {donation.monthly.month}
                  </span>
                ) : null}
              </th>
              <td data-label="Amount">{formatPounds(donation.amountPence)}</td>
              <td data-label="Status">{donation.statusLabel}</td>
              <td data-label="Gift Aid">
                {donation.giftAid.claim ? (
                  <Link to={`/admin/gift-aid/claims/${donation.giftAid.claim.id}`}>{donation.giftAid.label}</Link>
                ) : (
                  donation.giftAid.label
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** A claim's donations as HMRC's schedule has them, with a link to each donation. */
export function ClaimRowsTable({ rows, label }: { rows: ClaimDonation[]; label: string }) {
  return (
    <TableScroll label={label}>
      <table className="admin-table">
        <thead>
          <tr>
            {claimScheduleHeadings.map((heading) => (
              <th key={heading} scope="col">
                {heading}
              </th>
            ))}
            <th scope="col">Donation</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.donationId}>
              {row.row.map((cell, i) => (
                <td data-label={claimScheduleHeadings[i]} key={claimScheduleHeadings[i]}>
                  {cell}
                </td>
              ))}
              <td data-label="Donation">
                <Link
                  to={`/admin/donations/${row.donationId}`}
                  aria-label={`${row.refunded ? "Refunded since: tell HMRC" : "View"}: the donation of ${formatPounds(row.amountPence)} on ${londonDate(row.paidAt)}`}
                >
                  {row.refunded ? "Refunded since: tell HMRC" : "View"}
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
