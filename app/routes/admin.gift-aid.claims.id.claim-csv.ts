import type { Route } from "./+types/admin.gift-aid.claims.id.claim-csv";
import { claimWithDonations, recordClaimExport } from "~/features/donations/gift-aid-claims.server";
import { claimScheduleHeadings } from "~/features/donations/gift-aid";
import { requireStaffResource } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError } from "~/lib/errors";
import { csvDownload, toCsv } from "~/lib/csv";

// GET /admin/gift-aid/claims/:claimId/claim.csv: a past claim's schedule again, as it was claimed.
export const loader = pageWork(
  "Downloading a past Gift Aid claim",
  async ({ request, context, params }: Route.LoaderArgs) => {
    const staff = await requireStaffResource(context.services, request, "money");
    const { clock } = context.services;
    const found = await claimWithDonations(context.services, params.claimId);
    if (!found) throw new AppError("not-found", "There is no such claim.");
    await recordClaimExport(
      context.services,
      staff,
      { subject: `gift-aid-claim:${found.claim.id}`, count: found.donations.length },
      clock.now(),
    );
    return csvDownload(
      toCsv(
        [...claimScheduleHeadings],
        found.donations.map((row) => row.row),
      ),
      `gift-aid-claim-${found.claim.claimedOn}.csv`,
    );
  },
);
