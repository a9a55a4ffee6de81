import crypto from "node:crypto";
import { and, eq, isNull, or } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import { queueMail } from "~/infra/email/outbox.server";
import type { Mandate } from "~/infra/payments/provider.server";
import { firstCollectionAt, secondCollectionAt } from "~/lib/bacs";
import { regularGiftLinks, regularGifts } from "~db/schema";
import { mandateConfirmation, mandateInactiveNotice, type NoticeMandate } from "./direct-debit-notices.server";
import { giftLinkHash, giftLinkLifetimeMs } from "./gift-links.server";
import type { GiftDeps } from "./gift-links.server";

// A Direct Debit gift's mandate (docs/decisions/092-direct-debit.md): what the provider says of it
// is copied onto the gift (the account holder, sort code, last four digits, reference and state;
// never the account number), the confirmation of the Instruction is sent once per mandate when the
// site sends the Bacs notices, and a mandate the bank refuses or cancels fails its gift, said once
// to the donor and shown to staff.

type GiftRow = typeof regularGifts.$inferSelect;

/** Who the audit log names for what the bank did. */
export const bankBy = "the donor's bank, through the payment service";

/** When a gift's first collection is made: a new mandate's working days after its details came in. */
export function firstCollectionOf(gift: Pick<GiftRow, "mandateAt" | "createdAt">): Date {
  return firstCollectionAt(gift.mandateAt ?? gift.createdAt);
}

/** The mandate as the notices show it, from the gift's copy. */
export function noticeMandateOf(gift: GiftRow): NoticeMandate | null {
  if (!gift.bankAccountName || !gift.bankSortCode || !gift.bankLast4 || !gift.mandateReference) return null;
  return {
    accountName: gift.bankAccountName,
    sortCode: gift.bankSortCode,
    last4: gift.bankLast4,
    reference: gift.mandateReference,
  };
}

const mandateColumns = (mandate: Mandate) => ({
  providerMandateId: mandate.id,
  bankAccountName: mandate.accountName || null,
  bankSortCode: mandate.sortCode || null,
  bankLast4: /^\d{4}$/.test(mandate.last4) ? mandate.last4 : null,
  mandateReference: mandate.reference || null,
  mandateStatus: mandate.status,
});

/**
 * A mandate the provider has just made for the gift (its first bank details, or new ones): copied
 * onto the gift, and, where the site sends the Bacs notices, its confirmation queued once (keyed by
 * the mandate). `replacing`: new details for a gift already running, whose next collection is
 * `nextCollectionAt`.
 */
export async function recordGiftMandate(
  deps: Pick<GiftDeps, "db" | "clock" | "charity" | "payments">,
  giftId: string,
  mandate: Mandate,
  replacing?: { nextCollectionAt: Date },
): Promise<GiftRow | undefined> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(regularGifts).where(eq(regularGifts.id, giftId)).for("update");
    if (!locked) return undefined;
    const fresh = locked.providerMandateId !== mandate.id;
    const [gift] = await tx
      .update(regularGifts)
      .set({ ...mandateColumns(mandate), ...(fresh && { mandateAt: now }), updatedAt: now })
      .where(eq(regularGifts.id, giftId))
      .returning();
    const shown = noticeMandateOf(gift!);
    if (deps.payments.bacsNoticesBySite && shown && mandate.status !== "inactive") {
      await queueMail(tx, {
        kind: "regular-gift-mandate",
        about: mandate.id,
        message: await mandateConfirmation({
          donorName: gift!.donorName,
          email: gift!.email,
          charity: deps.charity,
          mandate: shown,
          amountPence: gift!.amountPence,
          dayOfMonth: gift!.dayOfMonth,
          firstCollectionAt: replacing ? replacing.nextCollectionAt : firstCollectionOf(gift!),
          thenMonthlyFrom: replacing
            ? replacing.nextCollectionAt
            : secondCollectionAt(gift!.createdAt, gift!.dayOfMonth),
          replacing: Boolean(replacing),
        }),
        now,
      });
    }
    return gift;
  });
}

/**
 * What the provider now says of a mandate (Stripe's `mandate.updated`, the offline bank's refusal):
 * re-read, never taken from a payload. Copied onto the gift whose mandate it is (or, the first time,
 * the gift of its customer still waiting for one); a mandate no longer in place fails a running
 * gift, with an entry staff read and one e-mail to the donor, with a fresh link to give new details.
 * An old mandate, replaced by new bank details, changes nothing.
 */
export async function followMandate(deps: GiftDeps, mandateId: string): Promise<GiftRow | undefined> {
  const mandate = await deps.payments.retrieveMandate(mandateId);
  const [found] = await deps.db
    .select()
    .from(regularGifts)
    .where(
      or(
        eq(regularGifts.providerMandateId, mandate.id),
        and(
          eq(regularGifts.providerCustomerId, mandate.customerId),
          isNull(regularGifts.providerMandateId),
          eq(regularGifts.paymentMethod, "bacs_debit"),
        ),
      ),
    )
    .limit(1);
  if (!found || !mandate.customerId || found.provider !== deps.payments.name) return undefined;
  // The gift's first mandate, heard of here first (Stripe's mandate.updated): its confirmation too.
  if (!found.providerMandateId && mandate.status !== "inactive") return recordGiftMandate(deps, found.id, mandate);
  const now = deps.clock.now();
  const token = crypto.randomBytes(32).toString("base64url");
  return deps.db.transaction(async (tx) => {
    const [gift] = await tx.select().from(regularGifts).where(eq(regularGifts.id, found.id)).for("update");
    if (!gift || (gift.providerMandateId && gift.providerMandateId !== mandate.id)) return gift;
    const stopped = mandate.status === "inactive" && gift.mandateStatus !== "inactive" && gift.status !== "cancelled";
    const [updated] = await tx
      .update(regularGifts)
      .set({
        ...mandateColumns(mandate),
        ...(!gift.providerMandateId && { mandateAt: now }),
        ...(stopped && { status: "failing", pausedUntil: null }),
        updatedAt: now,
      })
      .where(eq(regularGifts.id, gift.id))
      .returning();
    if (!stopped) return updated;
    await recordAudit(tx, {
      staff: { id: null, email: bankBy },
      action: "regular-gift.mandate-inactive",
      subject: `regular-gift:${gift.id}`,
      summary: `The Direct Debit Instruction ${mandate.reference} is no longer in place at the bank: no payment can be collected until the donor gives new bank details`,
      at: now,
    });
    const shown = noticeMandateOf(updated!);
    if (shown) {
      await tx.insert(regularGiftLinks).values({
        tokenHash: giftLinkHash(token),
        regularGiftId: gift.id,
        createdAt: now,
        expiresAt: new Date(now.getTime() + giftLinkLifetimeMs),
      });
      await queueMail(tx, {
        kind: "regular-gift-mandate-inactive",
        about: mandate.id,
        message: await mandateInactiveNotice({
          donorName: gift.donorName,
          email: gift.email,
          charity: deps.charity,
          mandate: shown,
          link: `${deps.charity.website.replace(/\/$/, "")}/giving/{{token}}`,
        }),
        sealed: deps.outbox.seal({ token }),
        now,
      });
    }
    return updated;
  });
}
