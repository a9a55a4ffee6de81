import type { Route } from "./+types/admin.gift-aid.claims.id";
import { ErrorPage } from "~/components/layout/error-page";
import { ClaimRowsTable } from "~/features/donations/components/staff-donations";
import { claimWithDonations } from "~/features/donations/gift-aid-claims.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { Breadcrumbs } from "~/features/staff/components/breadcrumbs";
import { requireStaffPage } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError } from "~/lib/errors";
import { londonDate, londonTime } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";

// /admin/gift-aid/claims/:claimId: a past claim's donations as they were claimed, downloadable
// again; any refunded since is flagged, since HMRC must be told.
export const loader = pageWork("A Gift Aid claim's page", async ({ request, context, params }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "money");
  const found = await claimWithDonations(context.services, params.claimId);
  if (!found) throw new AppError("not-found", "There is no such claim.");
  return found;
});

export const meta: Route.MetaFunction = () => adminMeta("Gift Aid claim");

export default function AdminGiftAidClaim({ loaderData: { claim, donations, summary } }: Route.ComponentProps) {
  const refunded = donations.filter((row) => row.refunded).length;
  return (
    <main id="main" className="page">
      <Breadcrumbs here={`Claim of ${londonDate(`${claim.claimedOn}T12:00:00Z`)}`} />
      <h1>Gift Aid claim of {londonDate(`${claim.claimedOn}T12:00:00Z`)}</h1>
      <p>
        {summary.count === 1 ? "1 donation" : `${summary.count} donations`} of {formatPounds(summary.totalPence)}; Gift
        Aid {formatPounds(summary.giftAidPence)}. Marked as claimed by {claim.staffEmail} on{" "}
        {londonDate(claim.createdAt)} at {londonTime(claim.createdAt)}.
      </p>
      {refunded > 0 ? (
        <p className="notice" role="note">
          {refunded === 1 ? "1 donation" : `${refunded} donations`} in this claim {refunded === 1 ? "was" : "were"}{" "}
          refunded since: tell HMRC, so that the claim is adjusted.
        </p>
      ) : null}
      <p>
        <a href={`/admin/gift-aid/claims/${claim.id}/claim.csv`} className="button button-secondary" download>
          Download claim (CSV)
        </a>
      </p>
      <ClaimRowsTable rows={donations} label="Table of the donations in this claim" />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
