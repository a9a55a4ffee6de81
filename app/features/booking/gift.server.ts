import { and, eq, inArray, sql, type AnyColumn, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Queryable } from "~/infra/db/database.server";
import { AppError } from "~/lib/errors";
import { declarationWording } from "~/lib/gift-aid-declaration";
import { isUuid } from "~/lib/ids";
import type { PaymentCard } from "~/lib/payment-card";
import { donations, giftAidDeclarations } from "~db/schema";
import { validateGift, type CheckoutGift } from "./gift";

// A gift at checkout (decision 085): a donation row linked to its booking (`donations.booking_ref`),
// written with the booking, paid with it by its one payment, and from then on a donation like any
// other (the donations pages, the Gift Aid claim, its own refund). The booking's `amount_pence`
// stays the tickets' total, so that refunds of tickets never reach the gift.

/** The gift the checkout was asked for, checked before anything is held; null for none. */
export function giftOfCheckout(input: unknown): CheckoutGift | null {
  const checked = validateGift(input);
  if (!checked.ok) {
    const message = Object.values(checked.errors)[0] ?? "Please check the donation.";
    throw new AppError("invalid", message, { fields: checked.errors });
  }
  return checked.gift;
}

/** The pence a gift adds to the booking's payment. */
export const giftPence = (gift: CheckoutGift | null | undefined) => gift?.amountPence ?? 0;

/**
 * The gift's donation (pending, with its Gift Aid declaration in the exact words agreed to), as
 * writes to go in the booking's own statement (writeTogether), so both are made or neither.
 */
export function giftWrites(
  db: Queryable,
  gift: CheckoutGift | null,
  booking: { bookingRef: string; name: string; email: string; provider: string; clientKey: string | null; now: Date },
  charityName: string,
): SQLWrapper[] {
  if (!gift) return [];
  const donationId = crypto.randomUUID();
  const { now } = booking;
  return [
    db.insert(donations).values({
      id: donationId,
      bookingRef: booking.bookingRef,
      amountPence: gift.amountPence,
      donorName: booking.name,
      email: booking.email,
      status: "pending",
      provider: booking.provider,
      clientKey: booking.clientKey,
      createdAt: now,
      updatedAt: now,
    }),
    ...(gift.giftAid
      ? [
          db.insert(giftAidDeclarations).values({
            id: crypto.randomUUID(),
            donationId,
            ...gift.giftAid,
            wording: declarationWording(gift.giftAid.scope, gift.amountPence, charityName),
            declaredAt: now,
          }),
        ]
      : []),
  ];
}

export type GiftRow = typeof donations.$inferSelect;
export type GiftDeclarationRow = typeof giftAidDeclarations.$inferSelect;

/** The gift added to a booking, with its Gift Aid declaration; undefined when there is none. */
export async function giftOfBooking(
  db: Queryable,
  bookingRef: string,
): Promise<{ donation: GiftRow; declaration: GiftDeclarationRow | null } | undefined> {
  if (!isUuid(bookingRef)) return undefined;
  const [row] = await db
    .select({ donation: donations, declaration: giftAidDeclarations })
    .from(donations)
    .leftJoin(giftAidDeclarations, eq(giftAidDeclarations.donationId, donations.id))
    .where(eq(donations.bookingRef, bookingRef));
  return row;
}

/** What a receipt and the confirmation page say of a booking's gift at checkout: its amount and declaration. */
export interface GiftSaid {
  amountPence: number;
  /** The Gift Aid declaration's words, when the donor made one. */
  wording: string | null;
}

/**
 * The booking's gift (GiftSaid) as JSON, or null, for a column of a query that reads the booking
 * itself: its reference column is `bookingRef` (decision 088).
 */
export function giftJsonOf(bookingRef: AnyColumn): SQL<GiftSaid | null> {
  return sql<GiftSaid | null>`(select json_build_object('amountPence', ${donations.amountPence},
      'wording', ${giftAidDeclarations.wording})
    from ${donations} left join ${giftAidDeclarations} on ${giftAidDeclarations.donationId} = ${donations.id}
    where ${donations.bookingRef} = ${bookingRef} limit 1)`;
}

// A gift not (yet) paid: waiting, or its attempt given up. A late payment that keeps its seats still pays it.
const unpaid = ["pending", "cancelled", "failed"];

/**
 * The gift paid with its booking: the write that goes in the booking's own statement (settlement),
 * carrying the booking's payment so that the donation's own refund gives back its part of it.
 */
export function giftPaidWrite(
  db: Queryable,
  bookingRef: string,
  paid: { paidAt: Date; card: PaymentCard | null; providerPaymentId: string | null; now: Date },
): SQLWrapper {
  return db
    .update(donations)
    .set({
      status: "paid",
      paidAt: paid.paidAt,
      providerPaymentId: paid.providerPaymentId,
      ...(paid.card?.brand !== undefined && { cardBrand: paid.card.brand }),
      ...(paid.card?.last4 !== undefined && { cardLast4: paid.card.last4 }),
      updatedAt: paid.now,
    })
    .where(and(eq(donations.bookingRef, bookingRef), inArray(donations.status, unpaid)));
}

/**
 * The gift of a booking whose payment never came (`cancelled`: the hold given up; `failed`: the
 * provider refused to start it), or was given back in full because its seats had gone (`refunded`).
 */
export async function giftNotPaid(
  db: Queryable,
  bookingRef: string,
  status: "cancelled" | "failed" | "refunded",
  now: Date,
) {
  await db
    .update(donations)
    .set({ status, updatedAt: now, ...(status === "refunded" && { refundedAt: now }) })
    .where(and(eq(donations.bookingRef, bookingRef), inArray(donations.status, unpaid)));
}
