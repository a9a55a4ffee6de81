import { desc, inArray } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import type { Database, Queryable } from "~/infra/db/database.server";
import { AppError } from "~/lib/errors";
import { validate } from "~/lib/forms";
import { isUuid } from "~/lib/ids";
import { londonDay } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { donations, giftAidClaims } from "~db/schema";
import { giftAidPence } from "./amount";
import { claimScheduleRow, giftAidDeclarationFor, readyToClaim, type GiftAidDonation } from "./gift-aid";
import { giftAidClaimSchema, staffDonationMessages } from "./schema";
import { loadDonationsAndDeclarations } from "./staff-donations.server";
import { plural } from "~/lib/plural";

// Gift Aid claims: the donations ready to claim, HMRC's claim schedule for them, and the claim
// marked as made so that no donation is ever claimed twice.

export interface ClaimDonation {
  donationId: string;
  paidAt: string;
  amountPence: number;
  giftAidPence: number;
  /** The claim schedule's row for it (HMRC's columns, in order). */
  row: string[];
  refunded: boolean;
}

export interface ClaimSummary {
  count: number;
  totalPence: number;
  giftAidPence: number;
}

function summarise(rows: readonly ClaimDonation[]): ClaimSummary {
  return {
    count: rows.length,
    totalPence: rows.reduce((sum, row) => sum + row.amountPence, 0),
    giftAidPence: rows.reduce((sum, row) => sum + row.giftAidPence, 0),
  };
}

function asGiftAidDonation(row: typeof donations.$inferSelect): GiftAidDonation {
  const { id, email, status, amountPence, paidAt, refundedAt, giftAidClaimId, regularGiftId } = row;
  return { id, email, status, amountPence, paidAt, refundedAt, giftAidClaimId, regularGiftId };
}

/** The paid, unrefunded, unclaimed donations a declaration covers, oldest first, as claim rows. */
export async function donationsReadyToClaim({ db }: { db: Queryable }): Promise<ClaimDonation[]> {
  const all = await loadDonationsAndDeclarations(db);
  const ready: ClaimDonation[] = [];
  for (const row of all.donations) {
    const declaration = readyToClaim(asGiftAidDonation(row), all.declarations);
    if (!declaration) continue;
    ready.push({
      donationId: row.id,
      paidAt: row.paidAt!.toISOString(),
      amountPence: row.amountPence,
      giftAidPence: giftAidPence(row.amountPence),
      row: claimScheduleRow(row, declaration),
      refunded: false,
    });
  }
  return ready.sort((a, b) => a.paidAt.localeCompare(b.paidAt) || a.donationId.localeCompare(b.donationId));
}

export function claimSummary(rows: readonly ClaimDonation[]): ClaimSummary {
  return summarise(rows);
}

/** Only the ready donations among `ids`, in the list's order (what the claim CSV of a form holds). */
export async function readyDonationsAmong({ db }: { db: Queryable }, ids: readonly string[]): Promise<ClaimDonation[]> {
  const wanted = new Set(ids);
  return (await donationsReadyToClaim({ db })).filter((row) => wanted.has(row.donationId));
}

/**
 * Marks a claim as made on `claimedOn` for exactly `donationIds` (the ones the page listed), in one
 * transaction with the donations locked: if any of them was claimed or refunded meanwhile, or is
 * otherwise not ready, nothing changes and staff are told. Audited. The new claim's id.
 */
export async function markClaimed(
  { db }: { db: Database },
  staff: { id: string; email: string },
  input: unknown,
  now: Date,
): Promise<{ claimId: string; summary: ClaimSummary }> {
  const checked = validate(giftAidClaimSchema, input);
  if (!checked.ok) {
    throw new AppError("invalid", checked.errors.claimedOn ?? staffDonationMessages.noDonations, {
      fields: checked.errors as Record<string, string>,
    });
  }
  const { claimedOn } = checked.data;
  if (claimedOn > londonDay(now)) {
    throw new AppError("invalid", staffDonationMessages.claimDate, {
      fields: { claimedOn: staffDonationMessages.claimDate },
    });
  }
  const ids = [...new Set(checked.data.donationIds)];
  return db.transaction(async (tx) => {
    // Locked in a fixed order, so two staff marking at once wait for each other, never deadlock.
    await tx
      .select({ id: donations.id })
      .from(donations)
      .where(inArray(donations.id, ids))
      .orderBy(donations.id)
      .for("update");
    const ready = await readyDonationsAmong({ db: tx }, ids);
    if (ready.length !== ids.length) {
      const gone = ids.length - ready.length;
      throw new AppError(
        "conflict",
        `${gone} of these ${ids.length} donations ${gone === 1 ? "was" : "were"} claimed or refunded since the list was shown, so nothing was marked. Look at the list again.`,
      );
    }
    const summary = summarise(ready);
    const claimId = crypto.randomUUID();
    await tx.insert(giftAidClaims).values({
      id: claimId,
      claimedOn,
      donationCount: summary.count,
      totalPence: summary.totalPence,
      staffUserId: staff.id,
      staffEmail: staff.email,
      createdAt: now,
    });
    await tx.update(donations).set({ giftAidClaimId: claimId, updatedAt: now }).where(inArray(donations.id, ids));
    await recordAudit(tx, {
      staff,
      action: "gift-aid.claim-marked",
      subject: `gift-aid-claim:${claimId}`,
      summary: `Marked ${plural(summary.count, "donation")} (${formatPounds(summary.totalPence)}, Gift Aid ${formatPounds(summary.giftAidPence)}) as claimed on ${claimedOn}`,
      at: now,
    });
    return { claimId, summary };
  });
}

export interface PastClaim {
  id: string;
  claimedOn: string;
  count: number;
  totalPence: number;
  giftAidPence: number;
  staffEmail: string;
  createdAt: string;
}

/** Claims already made, newest first. */
export async function pastClaims({ db }: { db: Queryable }): Promise<PastClaim[]> {
  const rows = await db
    .select()
    .from(giftAidClaims)
    .orderBy(desc(giftAidClaims.claimedOn), desc(giftAidClaims.createdAt));
  const amounts =
    rows.length === 0
      ? []
      : await db
          .select({ claimId: donations.giftAidClaimId, amountPence: donations.amountPence })
          .from(donations)
          .where(
            inArray(
              donations.giftAidClaimId,
              rows.map((r) => r.id),
            ),
          );
  return rows.map((claim) => ({
    id: claim.id,
    claimedOn: claim.claimedOn,
    count: claim.donationCount,
    totalPence: claim.totalPence,
    giftAidPence: amounts
      .filter((a) => a.claimId === claim.id)
      .reduce((sum, a) => sum + giftAidPence(a.amountPence), 0),
    staffEmail: claim.staffEmail,
    createdAt: claim.createdAt.toISOString(),
  }));
}

/** One past claim with its rows as they were claimed (a donation refunded since is flagged). */
export async function claimWithDonations(
  { db }: { db: Queryable },
  claimId: string,
): Promise<{ claim: PastClaim; donations: ClaimDonation[]; summary: ClaimSummary } | undefined> {
  if (!isUuid(claimId)) return undefined;
  const claim = (await pastClaims({ db })).find((c) => c.id === claimId);
  if (!claim) return undefined;
  const all = await loadDonationsAndDeclarations(db);
  const rows: ClaimDonation[] = [];
  for (const row of all.donations.filter((d) => d.giftAidClaimId === claimId)) {
    const declaration = giftAidDeclarationFor(asGiftAidDonation(row), all.declarations);
    if (!declaration || !row.paidAt) continue;
    rows.push({
      donationId: row.id,
      paidAt: row.paidAt.toISOString(),
      amountPence: row.amountPence,
      giftAidPence: giftAidPence(row.amountPence),
      row: claimScheduleRow(row, declaration),
      refunded: row.status === "refunded" || row.status === "refund_pending" || row.refundedAt !== null,
    });
  }
  rows.sort((a, b) => a.paidAt.localeCompare(b.paidAt) || a.donationId.localeCompare(b.donationId));
  return { claim, donations: rows, summary: summarise(rows) };
}

/** Records that a claim schedule was downloaded (the ready list, or a past claim), naming no donor. */
export async function recordClaimExport(
  { db }: { db: Queryable },
  staff: { id: string; email: string },
  what: { subject: string; count: number },
  now: Date,
) {
  await recordAudit(db, {
    staff,
    action: "gift-aid.claim-exported",
    subject: what.subject,
    summary: `Downloaded a Gift Aid claim schedule of ${plural(what.count, "donation")}`,
    at: now,
  });
}
