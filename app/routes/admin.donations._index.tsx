import type { Route } from "./+types/admin.donations._index";
import { ErrorPage } from "~/components/layout/error-page";
import { Pagination } from "~/components/ui/pagination";
import { useQuery } from "~/components/ui/use-query";
import { DonationFilterForm, DonationsTable, MonthTotalsTable } from "~/features/donations/components/staff-donations";
import { readDonationFilters } from "~/features/donations/schema";
import { donationsPage } from "~/features/donations/staff-donations.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";
import { requestedPage } from "~/lib/pagination";

// /admin/donations: donations newest first, 50 a page, found by the donor's name or e-mail
// (decision 077) and filtered by London days, Gift Aid and status, with the totals per London
// month of those paid and not refunded.
export const loader = pageWork("The donations page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "money");
  const search = new URL(request.url).searchParams;
  const { filters, errors, values } = readDonationFilters(search);
  const page = await donationsPage(context.services, filters, requestedPage(search.get("page")));
  return { ...page, errors, values };
});

export const meta: Route.MetaFunction = () => adminMeta("Donations");

export default function AdminDonations({ loaderData: { donations, months, errors, values } }: Route.ComponentProps) {
  const search = useQuery();
  const filtered = Boolean(values.from || values.to) || values.giftAid !== "all" || values.status !== "all";
  return (
    <main id="main" className="page">
      <h1>Donations</h1>
      <p>
        <a href="/admin/gift-aid">Gift Aid claims</a>: the donations ready to claim, and past claims.
      </p>
      <DonationFilterForm values={values} errors={errors} />
      <section className="section" aria-labelledby="months-heading">
        <h2 id="months-heading">Totals per month</h2>
        <p>Paid donations that were not refunded, with the Gift Aid their declarations can add (25%).</p>
        <MonthTotalsTable months={months} />
      </section>
      <section className="section" aria-labelledby="list-heading">
        <h2 id="list-heading">Donations</h2>
        {donations.total === 0 ? (
          <p role="status">
            {values.q.trim()
              ? `No donation matches “${values.q.trim()}”${filtered ? " with these filters" : ""}. Try the surname alone or the start of the e-mail address${filtered ? ", or clear the other filters" : ""}.`
              : "No donations match these filters."}
          </p>
        ) : (
          <>
            <p role="status">
              {donations.total === 1 ? "1 donation" : `${donations.total} donations`}
              {values.q.trim() ? ` matching “${values.q.trim()}”, best matches first.` : ", newest first."}
            </p>
            <DonationsTable donations={donations.rows} />
          </>
        )}
        <Pagination
          page={donations.page}
          pages={donations.pages}
          total={donations.total}
          search={search}
          label="Pages of donations"
        />
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
