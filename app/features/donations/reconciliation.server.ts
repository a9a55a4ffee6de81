import { and, eq, isNotNull, ne, sql } from "drizzle-orm";
import type { Queryable } from "~/infra/db/database.server";
import { londonHour } from "~/infra/db/automatic-backups.server";
import { londonDay } from "~/lib/london-time";
import { auditLog, regularGifts, siteSettings } from "~db/schema";
import { formatPounds } from "~/lib/money";
import { followMandate } from "./direct-debit.server";
import { catchUpGift, followSubscription, type GiftDeps } from "./regular-gifts.server";
import { regularGiftStatusLabels, type RegularGiftStatus } from "./schema";

// The daily check of monthly gifts against the payment provider (issue 34, decision 091): the
// provider is the truth. Webhooks keep each gift in line as things happen; this check repairs what
// they missed (a webhook lost for good, an endpoint down for days, a change made by hand in the
// provider's dashboard or in our database): each gift's state as the provider reports it, and every
// month it says is paid recorded once. Each correction is logged and kept in the audit log, where
// the gift's staff page shows it.

/** Who made a correction, as the audit log names it. */
export const reconciliationBy = "the site's daily check with the card payment service";

/** The London hour from which the day's check runs (after the night's renewals have settled). */
export const reconciliationHour = 5;

const settingsKey = "regular-gifts-reconciled";

export interface GiftCorrection {
  giftId: string;
  /** What changed: the state, and months recorded that were missing. */
  from: RegularGiftStatus;
  to: RegularGiftStatus;
  monthsRecorded: number;
  /** The amount the provider takes each month, where it differed from ours. */
  amountPence?: { from: number; to: number };
}

/**
 * Whether this process is the one to run today's check: once a London day, from
 * `reconciliationHour`, whichever process claims it first (one statement: the day is written only
 * if it is not already today's).
 */
export async function claimDailyReconciliation(db: Queryable, now: Date): Promise<boolean> {
  if (londonHour(now) < reconciliationHour) return false;
  const today = londonDay(now);
  const claimed = await db
    .insert(siteSettings)
    .values({ key: settingsKey, value: { day: today }, updatedAt: now, updatedBy: reconciliationBy })
    .onConflictDoUpdate({
      target: siteSettings.key,
      set: { value: { day: today }, updatedAt: now },
      setWhere: sql`${siteSettings.value}->>'day' is distinct from ${today}`,
    })
    .returning({ key: siteSettings.key });
  return claimed.length > 0;
}

/**
 * Asks the provider about every gift not cancelled here, and corrects what differs: the state
 * (a gift the provider cancelled, or whose payment it reports failed or recovered), and months
 * paid but not recorded (recorded once, with their receipts, as the webhook would have). A gift
 * the provider cannot be asked about now is left for tomorrow, and the others go on.
 */
export async function reconcileRegularGifts(deps: GiftDeps): Promise<GiftCorrection[]> {
  const gifts = await deps.db
    .select()
    .from(regularGifts)
    .where(
      and(
        ne(regularGifts.status, "cancelled"),
        isNotNull(regularGifts.providerSubscriptionId),
        eq(regularGifts.provider, deps.payments.name),
      ),
    );
  const corrections: GiftCorrection[] = [];
  for (const gift of gifts) {
    try {
      // Months it says are paid, recorded once; then the state, pause and amount it reports, as
      // the webhooks would have set them (a first payment just recorded makes the gift active).
      const recorded = await catchUpGift(deps, gift);
      // A Direct Debit's mandate too: a mandate.updated lost on its way is read again (decision 092).
      if (gift.paymentMethod === "bacs_debit" && gift.providerMandateId)
        await followMandate(deps, gift.providerMandateId);
      const after = (await followSubscription(deps, gift.providerSubscriptionId!)) ?? gift;
      const before = gift.status as RegularGiftStatus;
      const to = after.status as RegularGiftStatus;
      const amountChanged = after.amountPence !== gift.amountPence;
      if (to === before && recorded.length === 0 && !amountChanged) continue;
      const correction: GiftCorrection = {
        giftId: gift.id,
        from: before,
        to,
        monthsRecorded: recorded.length,
        ...(amountChanged && { amountPence: { from: gift.amountPence, to: after.amountPence } }),
      };
      corrections.push(correction);
      await recordCorrection(deps.db, correction, deps.clock.now());
    } catch (error) {
      console.error(
        JSON.stringify({
          level: "error",
          msg: "a monthly gift could not be checked with the card payment service",
          regularGiftId: gift.id,
          error: (error as Error).message,
        }),
      );
    }
  }
  return corrections;
}

async function recordCorrection(db: Queryable, correction: GiftCorrection, at: Date) {
  const parts = [
    ...(correction.from !== correction.to
      ? [
          `the card payment service says "${regularGiftStatusLabels[correction.to]}" where this site said "${regularGiftStatusLabels[correction.from]}"`,
        ]
      : []),
    ...(correction.amountPence
      ? [
          `it takes ${formatPounds(correction.amountPence.to)} a month where this site said ${formatPounds(correction.amountPence.from)}`,
        ]
      : []),
    ...(correction.monthsRecorded > 0
      ? [
          `${correction.monthsRecorded === 1 ? "a month" : `${correction.monthsRecorded} months`} it says were paid had not been recorded`,
        ]
      : []),
  ];
  const summary = `Corrected by the daily check: ${parts.join("; ")}`;
  console.warn(
    JSON.stringify({ level: "warn", msg: "a monthly gift was corrected from the card payment service", ...correction }),
  );
  await db.insert(auditLog).values({
    at,
    staffUserId: null,
    staffEmail: reconciliationBy,
    action: "regular-gift.corrected",
    subject: `regular-gift:${correction.giftId}`,
    summary,
  });
}

/** The day's check, run by the monthly gifts' job in whichever process claims it. */
export async function reconcileOncePerDay(deps: GiftDeps): Promise<GiftCorrection[] | null> {
  if (!(await claimDailyReconciliation(deps.db, deps.clock.now()))) return null;
  return reconcileRegularGifts(deps);
}
