import type { Route } from "./+types/admin.volunteers-csv";
import { requireStaffResource } from "~/features/staff/staff.server";
import { listVolunteers } from "~/features/volunteers/volunteers.server";
import { recordAudit } from "~/infra/audit/audit.server";
import { pageWork } from "~/infra/http/page.server";
import { csvDownload, toCsv } from "~/lib/csv";
import { londonDay, londonTime } from "~/lib/london-time";
import { plural } from "~/lib/plural";

// GET /admin/volunteers.csv: every sign-up for a spreadsheet; the download is in the audit log.
export const loader = pageWork("Downloading the volunteers", async ({ request, context }: Route.LoaderArgs) => {
  const staff = await requireStaffResource(context.services, request, "people");
  const { db, clock } = context.services;
  const now = clock.now();
  const volunteers = await listVolunteers(context.services);
  await recordAudit(db, {
    staff,
    action: "volunteers.exported",
    subject: "volunteers",
    summary: `Downloaded ${plural(volunteers.length, "sign-up")} as CSV`,
    at: now,
  });
  const csv = toCsv(
    ["Name", "E-mail", "Why they want to help", "Signed up"],
    volunteers.map((v) => [v.name, v.email, v.reason, `${londonDay(v.createdAt)} ${londonTime(v.createdAt)}`]),
  );
  return csvDownload(csv, `volunteers-${londonDay(now)}.csv`);
});
