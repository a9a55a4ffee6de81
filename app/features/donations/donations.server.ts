import { timingSafeEqual } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Queryable } from "~/infra/db/database.server";
import { queueMail } from "~/infra/email/outbox.server";
import { providerUnavailable, type Payment, type PaymentDeps } from "~/infra/payments/provider.server";
import { AppError } from "~/lib/errors";
import { isUuid } from "~/lib/ids";
import { donations, eventMessages, giftAidDeclarations } from "~db/schema";
import { donationSource, giftAidPence, thankYouDays } from "./amount";
import { donationReceipt } from "./receipt.server";
import {
  declarationWording,
  donationMessages,
  validateDonation,
  type OwnDonationAttempt,
  type GiftAidScope,
  type StartedDonation,
} from "./schema";

type DonationRow = typeof donations.$inferSelect;
type DeclarationRow = typeof giftAidDeclarations.$inferSelect;

/**
 * Starts a donation: checks the form with the same rules as the browser, records the donation
 * (and its Gift Aid declaration, with the exact words the donor agreed to) and asks the provider
 * for a payment of the amount validated here. A previous unpaid attempt by the same visitor
 * (`replaces`, proved by its client secret) is cancelled, so a second try never charges twice.
 */
export async function startDonation(
  deps: PaymentDeps,
  input: unknown,
  replaces?: OwnDonationAttempt,
  /** The visitor's address as its keyed hash (app/infra/visitors.server.ts). */
  clientKey: string | null = null,
): Promise<StartedDonation> {
  const validation = validateDonation(input);
  if (!validation.ok) throw new AppError("invalid", donationMessages.summary, { fields: validation.errors });
  const { amountPence, name, email, giftAid } = validation.data;
  if (replaces) await cancelDonation(deps, replaces);

  const now = deps.clock.now();
  const donationId = crypto.randomUUID();
  const eventId = await eventOfThankYou(deps.db, (input as { from?: unknown } | null)?.from, now);
  await deps.db.transaction(async (tx) => {
    await tx.insert(donations).values({
      eventId,
      id: donationId,
      amountPence,
      donorName: name,
      email,
      status: "pending",
      provider: deps.payments.name,
      clientKey,
      createdAt: now,
      updatedAt: now,
    });
    if (giftAid) {
      await tx.insert(giftAidDeclarations).values({
        donationId,
        ...giftAid,
        wording: declarationWording(giftAid.scope, amountPence, deps.charity.name),
        declaredAt: now,
      });
    }
  });

  try {
    const payment = await deps.payments.createPayment({
      amountPence,
      description: `Donation to ${deps.charity.name} (${donationId})`,
      metadata: { donation_id: donationId, gift_aid: giftAid ? "yes" : "no" },
      receiptEmail: email,
      idempotencyKey: `donation-${donationId}`,
    });
    await deps.db
      .update(donations)
      .set({ providerPaymentId: payment.id, updatedAt: deps.clock.now() })
      .where(eq(donations.id, donationId));
    return { donationId, clientSecret: payment.clientSecret, amountPence };
  } catch (error) {
    await deps.db
      .update(donations)
      .set({ status: "failed", updatedAt: deps.clock.now() })
      .where(eq(donations.id, donationId));
    throw providerUnavailable(error, `starting donation ${donationId}`);
  }
}

/**
 * The event a gift counts for (decision 095): the one its thank-you's link named, when that event's
 * first thank-you was sent no more than 30 days ago by the site's clock. Otherwise none, silently:
 * an old or made-up link gives as any other.
 */
async function eventOfThankYou(db: Queryable, from: unknown, now: Date): Promise<string | null> {
  const eventId = donationSource(from);
  if (!eventId) return null;
  const [first] = await db
    .select({ sentAt: sql<Date | null>`min(${eventMessages.sentAt})`.mapWith(eventMessages.sentAt) })
    .from(eventMessages)
    .where(and(eq(eventMessages.eventId, eventId), eq(eventMessages.kind, "thank-you")));
  const sentAt = first?.sentAt;
  if (!sentAt) return null;
  const age = now.getTime() - sentAt.getTime();
  return age >= 0 && age <= thankYouDays * 24 * 60 * 60 * 1000 ? eventId : null;
}

/**
 * Gives up the visitor's own unpaid attempt: its payment is cancelled. Only the browser that
 * started it can (its payment's client secret is the proof); anything else is left alone. If it was
 * paid after all, settling still records it.
 */
async function cancelDonation(deps: PaymentDeps, attempt: OwnDonationAttempt) {
  if (!isUuid(attempt.donationId)) return;
  const [existing] = await deps.db.select().from(donations).where(eq(donations.id, attempt.donationId));
  if (existing?.status !== "pending" || !existing.providerPaymentId) return;
  const payment = await deps.payments.retrievePayment(existing.providerPaymentId).catch(() => undefined);
  if (!payment || !sameSecret(attempt.clientSecret, payment.clientSecret)) return;
  const [row] = await deps.db
    .update(donations)
    .set({ status: "cancelled", updatedAt: deps.clock.now() })
    .where(and(eq(donations.id, attempt.donationId), eq(donations.status, "pending")))
    .returning();
  if (row) await deps.payments.cancelPayment(existing.providerPaymentId).catch(() => undefined);
}

/**
 * A donation whose card was declined too often (decision 026): its payment is cancelled at the
 * provider, so no further card can be tried on it, and it is marked cancelled. A payment the
 * provider already took or is still working on is left alone.
 */
export async function giveUpDonation(deps: PaymentDeps, donationId: string) {
  if (!isUuid(donationId)) return undefined;
  const [row] = await deps.db.select().from(donations).where(eq(donations.id, donationId));
  if (row?.status !== "pending" || !row.providerPaymentId) return undefined;
  await deps.payments.cancelPayment(row.providerPaymentId);
  const payment = await deps.payments.retrievePayment(row.providerPaymentId);
  if (payment.status !== "canceled") return undefined;
  await deps.db
    .update(donations)
    .set({ status: "cancelled", updatedAt: deps.clock.now() })
    .where(and(eq(donations.id, donationId), eq(donations.status, "pending")));
  return "cancelled" as const;
}

function sameSecret(given: string, actual: string) {
  const a = Buffer.from(given);
  const b = Buffer.from(actual);
  return a.length === b.length && timingSafeEqual(a, b);
}

export type DonationSettlement =
  | { outcome: "paid"; donation: DonationRow; declaration: DeclarationRow | null; firstTime: boolean }
  | { outcome: "pending"; donation: DonationRow; declaration: DeclarationRow | null; status: string }
  | { outcome: "unknown" };

async function declarationFor(db: Queryable, donationId: string) {
  const [row] = await db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.donationId, donationId));
  return row ?? null;
}

/**
 * Settles a donation from what the payment provider says (never from the visitor's URL). Called by
 * the webhook and by the return page, in either order, any number of times: the row is locked, so
 * it is marked paid and its receipt queued exactly once. A payment whose amount or metadata does
 * not match the donation is never taken as paying for it. `known` is the payment as the provider has
 * just given it (the webhook), so it need not be asked twice.
 */
export async function settleDonation(
  deps: PaymentDeps,
  donationId: string,
  known?: Payment,
): Promise<DonationSettlement> {
  if (!isUuid(donationId)) return { outcome: "unknown" };
  const [donation] = await deps.db.select().from(donations).where(eq(donations.id, donationId));
  if (!donation?.providerPaymentId) return { outcome: "unknown" };
  const declaration = await declarationFor(deps.db, donationId);
  if (donation.status === "paid") return { outcome: "paid", donation, declaration, firstTime: false };

  const payment =
    known?.id === donation.providerPaymentId ? known : await deps.payments.retrievePayment(donation.providerPaymentId);
  if (payment.status !== "succeeded") return { outcome: "pending", donation, declaration, status: payment.status };
  if (
    payment.amountPence !== donation.amountPence ||
    payment.currency !== "gbp" ||
    payment.metadata.donation_id !== donationId
  ) {
    console.error(`Payment ${payment.id} does not match donation ${donationId}: not recording it as paid.`);
    return { outcome: "pending", donation, declaration, status: "amount_mismatch" };
  }

  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(donations).where(eq(donations.id, donationId)).for("update");
    if (locked!.status === "paid")
      return { outcome: "paid", donation: locked!, declaration, firstTime: false } as const;
    // A cancelled attempt that was paid after all is still a gift received.
    const [paid] = await tx
      .update(donations)
      // The card is kept for the receipt: brand and last four digits only.
      .set({
        status: "paid",
        paidAt: now,
        cardBrand: payment.card?.brand,
        cardLast4: payment.card?.last4,
        updatedAt: now,
      })
      .where(eq(donations.id, donationId))
      .returning();
    const receipt = await donationReceipt({
      donationId,
      donorName: paid!.donorName,
      email: paid!.email,
      amountPence: paid!.amountPence,
      paidAt: now,
      card: payment.card,
      giftAid: declaration,
      charity: deps.charity,
    });
    await queueMail(tx, { kind: "donation-receipt", about: donationId, message: receipt, now });
    return { outcome: "paid", donation: paid!, declaration, firstTime: true } as const;
  });
}

/** Every donation, newest first, with its Gift Aid declaration if any: for staff. */
export async function listDonations({ db }: { db: Queryable }) {
  const rows = await db
    .select()
    .from(donations)
    .leftJoin(giftAidDeclarations, eq(giftAidDeclarations.donationId, donations.id))
    .orderBy(desc(donations.createdAt));
  return rows.map(({ donations: d, gift_aid_declarations: g }) => ({
    id: d.id,
    status: d.status,
    amountPence: d.amountPence,
    name: d.donorName,
    email: d.email,
    provider: d.provider,
    providerPaymentId: d.providerPaymentId,
    createdAt: d.createdAt.toISOString(),
    paidAt: d.paidAt?.toISOString() ?? null,
    refundedAt: d.refundedAt?.toISOString() ?? null,
    /** The Gift Aid claim it was claimed in, if any. */
    giftAidClaimId: d.giftAidClaimId,
    giftAid: g
      ? {
          firstName: g.firstName,
          surname: g.surname,
          houseNameOrNumber: g.houseNameOrNumber,
          postcode: g.postcode,
          scope: g.scope as GiftAidScope,
          wording: g.wording,
          declaredAt: g.declaredAt.toISOString(),
          cancelledAt: g.cancelledAt?.toISOString() ?? null,
          cancelledBy: g.cancelledBy,
          claimablePence: giftAidPence(d.amountPence),
        }
      : null,
  }));
}
