import { redirect } from "react-router";
import type { Route } from "./+types/admin.gift-aid.claim-csv";
import { readyDonationsAmong, recordClaimExport } from "~/features/donations/gift-aid-claims.server";
import { claimScheduleHeadings } from "~/features/donations/gift-aid";
import { requireStaffResource } from "~/features/staff/staff.server";
import { readFormBody } from "~/infra/http/api.server";
import { bodyLimits } from "~/infra/http/body-limits.server";
import { pageWork } from "~/infra/http/page.server";
import { csvDownload, toCsv } from "~/lib/csv";
import { londonDay } from "~/lib/london-time";

// POST /admin/gift-aid/claim.csv: HMRC's claim schedule for the donations the Gift Aid page listed
// (their ids come with the form), those still ready to claim; the download is in the audit log.
export const action = pageWork("Downloading a Gift Aid claim", async ({ request, context }: Route.ActionArgs) => {
  const staff = await requireStaffResource(context.services, request, "money");
  const { clock } = context.services;
  const now = clock.now();
  const form = await readFormBody(request, bodyLimits.staff);
  const rows = await readyDonationsAmong(context.services, form.getAll("donationId").map(String));
  await recordClaimExport(context.services, staff, { subject: "gift-aid-claim:ready", count: rows.length }, now);
  return csvDownload(
    toCsv(
      [...claimScheduleHeadings],
      rows.map((row) => row.row),
    ),
    `gift-aid-claim-${londonDay(now)}.csv`,
  );
});

// The file is made from the page's list: a plain visit goes to the page.
export const loader = pageWork("The Gift Aid claim file", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffResource(context.services, request, "money");
  throw redirect("/admin/gift-aid");
});
