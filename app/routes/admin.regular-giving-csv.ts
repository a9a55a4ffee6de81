import type { Route } from "./+types/admin.regular-giving-csv";
import { allRegularGifts } from "~/features/donations/staff-regular-gifts.server";
import { requireStaffResource } from "~/features/staff/staff.server";
import { recordAudit } from "~/infra/audit/audit.server";
import { pageWork } from "~/infra/http/page.server";
import { csvDownload, toCsv } from "~/lib/csv";
import { londonDay } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { plural } from "~/lib/plural";

// GET /admin/regular-giving.csv: every monthly gift for a spreadsheet; the download is in the audit log.
export const loader = pageWork("Downloading the monthly gifts", async ({ request, context }: Route.LoaderArgs) => {
  const staff = await requireStaffResource(context.services, request, "money");
  const { db, clock } = context.services;
  const now = clock.now();
  const gifts = await allRegularGifts(db);
  await recordAudit(db, {
    staff,
    action: "regular-gifts.exported",
    subject: "regular-gifts",
    summary: `Downloaded ${plural(gifts.length, "monthly gift")} as CSV`,
    at: now,
  });
  const csv = toCsv(
    [
      "Donor",
      "E-mail",
      "Each month",
      "Day",
      "State",
      "Started",
      "Cancelled",
      "Payments",
      "Paid so far",
      "Last paid",
      "Gift Aid",
      "Paid by",
      "Direct Debit reference",
      "Direct Debit state",
    ],
    gifts.map((gift) => [
      gift.donorName,
      gift.email,
      formatPounds(gift.amountPence),
      gift.day,
      gift.statusLabel,
      londonDay(gift.startedAt),
      gift.cancelledAt ? londonDay(gift.cancelledAt) : "",
      gift.payments,
      formatPounds(gift.paidPence),
      gift.lastPaidAt ? londonDay(gift.lastPaidAt) : "",
      gift.giftAid ? "Declared" : "No",
      gift.paidBy,
      gift.mandate?.reference ?? "",
      gift.mandate?.statusLabel ?? "",
    ]),
  );
  return csvDownload(csv, `monthly-gifts-${londonDay(now)}.csv`);
});
