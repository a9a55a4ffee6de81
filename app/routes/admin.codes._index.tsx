import { Link } from "react-router";
import type { Route } from "./+types/admin.codes._index";
import { ErrorPage } from "~/components/layout/error-page";
import { PromoCodesTable } from "~/features/booking/components/promo-codes-staff";
import { listPromoCodes } from "~/features/booking/promo-codes.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";

// /admin/codes: every promo code with its event, discount, uses and the money it gave away (decision 084).
export const loader = pageWork("The promo codes page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "events");
  const now = context.services.clock.now();
  return { codes: await listPromoCodes(context.services.db, now), now: now.toISOString() };
});

export const meta: Route.MetaFunction = () => adminMeta("Promo codes");

export default function AdminCodes({ loaderData: { codes, now } }: Route.ComponentProps) {
  return (
    <main id="main" className="page">
      <h1>Promo codes</h1>
      <p>
        A code takes a percentage or an amount off each ticket, or makes tickets free (complimentary), for one event or
        all. Buyers type it on the booking page under Promo code.
      </p>
      <p>
        <Link to="/admin/codes/new" className="button">
          New promo code
        </Link>
      </p>
      {codes.length === 0 ? <p role="status">No promo codes yet.</p> : <PromoCodesTable codes={codes} now={now} />}
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
