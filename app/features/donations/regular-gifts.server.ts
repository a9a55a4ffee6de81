import crypto from "node:crypto";
import { and, asc, desc, eq, gt, inArray, isNotNull, lte, or } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import type { Database, Queryable } from "~/infra/db/database.server";
import { mailKey } from "~/infra/email/mail-kinds";
import { mailInsert, queueMail } from "~/infra/email/outbox.server";
import type { OfflineProvider } from "~/infra/payments/offline.server";
import { providerUnavailable, type PaymentDeps, type SubscriptionInvoice } from "~/infra/payments/provider.server";
import { secondCollectionAt } from "~/lib/bacs";
import {
  billingMonthOf,
  firstMonthlyPaymentAfter,
  monthAfter,
  monthlyPaymentDate,
  nextPaymentDate,
} from "~/lib/billing-month";
import { AppError } from "~/lib/errors";
import { isUuid } from "~/lib/ids";
import { donations, giftAidDeclarations, outbox, regularGiftLinks, regularGifts } from "~db/schema";
import { giftAidPence } from "./amount";
import { paymentFailedNotice, regularGiftReceipt } from "./regular-gift-receipt.server";
import { firstCollectionOf, followMandate, recordGiftMandate } from "./direct-debit.server";
import { giftLinkHash, giftLinkLifetimeMs, type GiftDeps } from "./gift-links.server";
import {
  declarationWording,
  donationMessages,
  regularGiftScope,
  payByMethods,
  regularGiftMessages,
  validateRegularGift,
  type OwnGiftAttempt,
  type RegularGiftStatus,
  type StartedRegularGift,
} from "./schema";

// Regular (monthly) gifts by card (docs/decisions/089-monthly-gifts.md). The provider keeps the
// subscription and takes the money; we keep the gift, and one donation row per month paid, each
// recorded from what the provider says, once (the unique gift-and-month index).

type GiftRow = typeof regularGifts.$inferSelect;

/** What recording a month's payment needs beyond a card payment's: the outbox's seal for the link. */
export type { GiftDeps };

export { giftLinkHash, giftLinkLifetimeMs };

/**
 * Starts a monthly gift: checks the form with the browser's rules, records the gift (incomplete),
 * its first month's donation (pending) and any Gift Aid declaration (HMRC's enduring wording),
 * then asks the provider for a subscription whose first invoice the browser's card confirms now.
 */
export async function startRegularGift(
  deps: PaymentDeps,
  input: unknown,
  /** The visitor's earlier attempt (a declined card, then another try): given up first. */
  replaces?: OwnGiftAttempt,
  /** The visitor's address as its keyed hash (app/infra/visitors.server.ts). */
  clientKey: string | null = null,
): Promise<StartedRegularGift> {
  const validation = validateRegularGift(input);
  if (!validation.ok) throw new AppError("invalid", donationMessages.summary, { fields: validation.errors });
  const { amountPence, name, email, giftAid, dayOfMonth } = validation.data;
  // Card, or Bacs Direct Debit where the provider offers it (decision 092).
  const payBy = (input as { payBy?: unknown }).payBy;
  const paymentMethod = payBy === undefined || payBy === "card" ? "card" : payByMethods[payBy as "direct-debit"];
  if (!paymentMethod || (paymentMethod === "bacs_debit" && !(await deps.payments.bacsOffered()))) {
    throw new AppError("invalid", regularGiftMessages.payBy, { fields: { payBy: regularGiftMessages.payBy } });
  }
  if (replaces) await giveUpOwnAttempt(deps, replaces);
  const now = deps.clock.now();
  const regularGiftId = crypto.randomUUID();
  const donationId = crypto.randomUUID();
  await deps.db.transaction(async (tx) => {
    await tx.insert(regularGifts).values({
      id: regularGiftId,
      amountPence,
      dayOfMonth,
      donorName: name,
      email,
      status: "incomplete",
      provider: deps.payments.name,
      clientKey,
      createdAt: now,
      updatedAt: now,
      paymentMethod,
    });
    await tx.insert(donations).values({
      id: donationId,
      amountPence,
      donorName: name,
      email,
      status: "pending",
      provider: deps.payments.name,
      clientKey,
      regularGiftId,
      billingMonth: billingMonthOf(now),
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
    const started = await deps.payments.createSubscription({
      amountPence,
      dayOfMonth,
      name,
      email,
      description: `Monthly gift to ${deps.charity.name} (${regularGiftId})`,
      metadata: { regular_gift_id: regularGiftId, gift_aid: giftAid ? "yes" : "no" },
      idempotencyKey: `regular-gift-${regularGiftId}`,
      // A Direct Debit's first collection waits for the bank to set up the mandate (decision 092).
      secondPaymentAt:
        paymentMethod === "bacs_debit"
          ? secondCollectionAt(now, dayOfMonth)
          : firstMonthlyPaymentAfter(now, dayOfMonth),
      paymentMethod,
    });
    const at = deps.clock.now();
    await deps.db.transaction(async (tx) => {
      await tx
        .update(regularGifts)
        .set({
          providerCustomerId: started.subscription.customerId,
          providerSubscriptionId: started.subscription.id,
          updatedAt: at,
        })
        .where(eq(regularGifts.id, regularGiftId));
      // The first month's donation is paid by the subscription's first invoice.
      await tx
        .update(donations)
        .set({ providerPaymentId: started.firstInvoice.id, updatedAt: at })
        .where(eq(donations.id, donationId));
    });
    return { regularGiftId, donationId, clientSecret: started.clientSecret, amountPence };
  } catch (error) {
    const at = deps.clock.now();
    await deps.db.transaction(async (tx) => {
      await tx.update(donations).set({ status: "failed", updatedAt: at }).where(eq(donations.id, donationId));
      await tx
        .update(regularGifts)
        .set({ status: "cancelled", cancelledAt: at, updatedAt: at })
        .where(eq(regularGifts.id, regularGiftId));
    });
    throw providerUnavailable(error, `starting regular gift ${regularGiftId}`);
  }
}

export type GiftPaymentRecord =
  | { outcome: "paid"; donationId: string; firstTime: boolean; welcome: boolean }
  | { outcome: "not-paid"; status: string }
  | { outcome: "unknown" };

/** Which of our states a provider's subscription status means; undefined to keep ours. */
export function giftStatusFor(providerStatus: string): RegularGiftStatus | undefined {
  if (providerStatus === "active" || providerStatus === "trialing") return "active";
  if (providerStatus === "past_due" || providerStatus === "unpaid") return "failing";
  if (providerStatus === "canceled" || providerStatus === "incomplete_expired") return "cancelled";
  if (providerStatus === "incomplete") return "incomplete";
  return undefined;
}

async function giftBySubscription(db: Queryable, subscriptionId: string) {
  if (!subscriptionId) return undefined;
  const [gift] = await db.select().from(regularGifts).where(eq(regularGifts.providerSubscriptionId, subscriptionId));
  return gift;
}

/**
 * Records a month's invoice the provider says is paid (Stripe's `invoice.paid`, the offline
 * provider's card form or its monthly run), as the gift's donation row for that month, with its
 * receipt (the welcome for the first) queued in the same transaction. Any number of times, in any
 * order, across crashes: the gift's row is locked, and a month already recorded is left alone
 * (the donation's unique gift-and-month index stands behind this). Asks the provider for the
 * invoice again unless `known` is what it has just said.
 */
export async function recordGiftInvoice(
  deps: GiftDeps,
  invoiceId: string,
  known?: SubscriptionInvoice,
): Promise<GiftPaymentRecord> {
  const invoice = known?.id === invoiceId ? known : await deps.payments.retrieveInvoice(invoiceId);
  const found = await giftBySubscription(deps.db, invoice.subscriptionId);
  if (!found) return { outcome: "unknown" };
  if (invoice.status !== "paid") return { outcome: "not-paid", status: invoice.status };
  if (invoice.currency !== "gbp" || invoice.amountPence <= 0) {
    console.error(`Invoice ${invoice.id} of regular gift ${found.id} is not in pence: not recording it.`);
    return { outcome: "not-paid", status: "amount_mismatch" };
  }
  const now = deps.clock.now();
  const paidAt = invoice.paidAt && invoice.paidAt.getTime() <= now.getTime() ? invoice.paidAt : now;
  const month = billingMonthOf(invoice.createdAt);

  return deps.db.transaction(async (tx) => {
    const [gift] = await tx.select().from(regularGifts).where(eq(regularGifts.id, found.id)).for("update");
    // The invoice's own row (the first month's, made when the gift started), else the month's.
    const [existing] = await tx
      .select()
      .from(donations)
      .where(
        and(
          eq(donations.regularGiftId, gift!.id),
          or(eq(donations.providerPaymentId, invoice.id), eq(donations.billingMonth, month)),
        ),
      );
    if (existing && existing.status !== "pending" && existing.status !== "cancelled" && existing.status !== "failed") {
      return { outcome: "paid", donationId: existing.id, firstTime: false, welcome: false } as const;
    }
    const earlierPaid = await tx
      .select({ id: donations.id })
      .from(donations)
      .where(and(eq(donations.regularGiftId, gift!.id), eq(donations.status, "paid")));
    const welcome = earlierPaid.length === 0;
    const values = {
      amountPence: invoice.amountPence,
      status: "paid",
      paidAt,
      cardBrand: invoice.card?.brand,
      cardLast4: invoice.card?.last4,
      updatedAt: now,
    };
    let donationId: string;
    if (existing) {
      donationId = existing.id;
      await tx
        .update(donations)
        .set({ ...values, providerPaymentId: invoice.id })
        .where(eq(donations.id, existing.id));
    } else {
      donationId = crypto.randomUUID();
      await tx.insert(donations).values({
        id: donationId,
        ...values,
        donorName: gift!.donorName,
        email: gift!.email,
        provider: gift!.provider,
        providerPaymentId: invoice.id,
        clientKey: null,
        regularGiftId: gift!.id,
        billingMonth: month,
        createdAt: now,
      });
    }
    // A payment taken means the gift runs; a cancelled gift stays cancelled (the provider's word on
    // that comes with its own event).
    if (gift!.status === "incomplete" || gift!.status === "failing") {
      await tx.update(regularGifts).set({ status: "active", updatedAt: now }).where(eq(regularGifts.id, gift!.id));
    }
    // A declaration the donor made on the gift's page is made with this payment (decision 090).
    const waiting = gift!.declarationWaiting;
    if (waiting) {
      await tx
        .insert(giftAidDeclarations)
        .values({
          donationId,
          firstName: waiting.firstName,
          surname: waiting.surname,
          houseNameOrNumber: waiting.houseNameOrNumber,
          postcode: waiting.postcode,
          scope: regularGiftScope,
          wording: waiting.wording,
          declaredAt: new Date(waiting.declaredAt),
        })
        .onConflictDoNothing({ target: giftAidDeclarations.donationId });
      await tx
        .update(regularGifts)
        .set({ declarationWaiting: null, updatedAt: now })
        .where(eq(regularGifts.id, gift!.id));
    }
    const declaration = await giftDeclaration(tx, gift!.id);
    const token = crypto.randomBytes(32).toString("base64url");
    await tx.insert(regularGiftLinks).values({
      tokenHash: giftLinkHash(token),
      regularGiftId: gift!.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + giftLinkLifetimeMs),
    });
    const bank = gift!.paymentMethod === "bacs_debit";
    const message = await regularGiftReceipt({
      first: welcome,
      donationId,
      donorName: gift!.donorName,
      email: gift!.email,
      amountPence: invoice.amountPence,
      dayOfMonth: gift!.dayOfMonth,
      paidAt,
      // A Direct Debit month is settled days after it was collected: its next one is still ahead.
      nextPaymentAt: bank
        ? nextPaymentDate({ dayOfMonth: gift!.dayOfMonth, lastPaidMonth: month, pausedUntil: null, now })
        : monthlyPaymentDate(monthAfter(month), gift!.dayOfMonth),
      card: bank ? null : invoice.card,
      directDebit:
        bank && gift!.bankLast4 && gift!.bankSortCode ? { last4: gift!.bankLast4, sortCode: gift!.bankSortCode } : null,
      giftAid: declaration,
      link: `${deps.charity.website.replace(/\/$/, "")}/giving/{{token}}`,
      charity: deps.charity,
    });
    await queueMail(tx, {
      kind: welcome ? "regular-gift-welcome" : "regular-gift-receipt",
      about: donationId,
      message,
      sealed: deps.outbox.seal({ token }),
      now,
    });
    return { outcome: "paid", donationId, firstTime: true, welcome } as const;
  });
}

/**
 * The gift's Gift Aid declaration as it stands: the latest made with one of its donations (the
 * first, or one declared later on the gift's page), cancelled or not; null if the donor made none.
 */
async function giftDeclaration(db: Queryable, giftId: string) {
  const [row] = await db
    .select({
      wording: giftAidDeclarations.wording,
      declaredAt: giftAidDeclarations.declaredAt,
      cancelledAt: giftAidDeclarations.cancelledAt,
    })
    .from(giftAidDeclarations)
    .innerJoin(donations, eq(donations.id, giftAidDeclarations.donationId))
    .where(eq(donations.regularGiftId, giftId))
    .orderBy(desc(giftAidDeclarations.declaredAt))
    .limit(1);
  return row ?? null;
}

/**
 * Sets the gift's state, pause and amount to what the provider says of its subscription (Stripe's
 * `customer.subscription.updated` and `.deleted`, re-read, never taken from the payload).
 */
export async function followSubscription(deps: PaymentDeps, subscriptionId: string): Promise<GiftRow | undefined> {
  const gift = await giftBySubscription(deps.db, subscriptionId);
  if (!gift) return undefined;
  const subscription = await deps.payments.retrieveSubscription(subscriptionId);
  let status = giftStatusFor(subscription.status);
  // A running gift whose collection the provider has paused is paused until it says (decision 090).
  const pausedUntil = status === "active" && subscription.pausedUntil ? subscription.pausedUntil : null;
  if (pausedUntil) status = "paused";
  // A gift is only ever started by its first payment (recordGiftInvoice): the provider's
  // "incomplete" never sets one back.
  if (!status || status === "incomplete") status = gift.status as RegularGiftStatus;
  // A Direct Debit whose mandate the bank has stopped cannot collect, whatever the subscription says,
  // until the donor gives new bank details (decision 092).
  if (status === "active" && gift.paymentMethod === "bacs_debit" && gift.mandateStatus === "inactive") {
    status = "failing";
  }
  const amountPence = subscription.amountPence && status !== "cancelled" ? subscription.amountPence : gift.amountPence;
  const keptPause = status === "paused" ? (pausedUntil ?? gift.pausedUntil) : null;
  if (
    status === gift.status &&
    amountPence === gift.amountPence &&
    keptPause?.getTime() === gift.pausedUntil?.getTime()
  ) {
    return gift;
  }
  const now = deps.clock.now();
  const [updated] = await deps.db
    .update(regularGifts)
    .set({
      status,
      pausedUntil: keptPause,
      amountPence,
      updatedAt: now,
      ...(status === "cancelled" && { cancelledAt: gift.cancelledAt ?? now }),
    })
    .where(eq(regularGifts.id, gift.id))
    .returning();
  return updated;
}

/**
 * Gives up the visitor's own earlier attempt, still waiting for its first payment, so a second try
 * never leaves two gifts: only the browser that started it can (its first payment's client secret
 * is the proof); anything else is left alone. If it was paid after all, it stands.
 */
async function giveUpOwnAttempt(deps: PaymentDeps, attempt: OwnGiftAttempt) {
  if (!isUuid(attempt.regularGiftId)) return;
  const [first] = await deps.db
    .select({ invoiceId: donations.providerPaymentId, status: regularGifts.status })
    .from(donations)
    .innerJoin(regularGifts, eq(regularGifts.id, donations.regularGiftId))
    .where(and(eq(donations.regularGiftId, attempt.regularGiftId), eq(donations.status, "pending")));
  if (first?.status !== "incomplete" || !first.invoiceId) return;
  const invoice = await deps.payments.retrieveInvoice(first.invoiceId).catch(() => undefined);
  if (!invoice?.clientSecret || !sameSecret(attempt.clientSecret, invoice.clientSecret)) return;
  await giveUpRegularGift(deps, attempt.regularGiftId).catch((error: unknown) => {
    console.error(`Giving up regular gift ${attempt.regularGiftId} failed:`, (error as Error).message);
  });
}

function sameSecret(given: string, actual: string) {
  const a = Buffer.from(given);
  const b = Buffer.from(actual);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/**
 * A gift whose first card was declined too often (decision 026): its subscription is cancelled at
 * the provider, which voids the first invoice, so no further card can be tried on it; the gift and
 * its first month are marked cancelled. A gift already paid is left alone.
 */
export async function giveUpRegularGift(deps: PaymentDeps, giftId: string) {
  if (!isUuid(giftId)) return undefined;
  const [gift] = await deps.db.select().from(regularGifts).where(eq(regularGifts.id, giftId));
  if (gift?.status !== "incomplete" || !gift.providerSubscriptionId) return undefined;
  await deps.payments.cancelSubscription(gift.providerSubscriptionId);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await tx
      .update(regularGifts)
      .set({ status: "cancelled", cancelledAt: now, updatedAt: now })
      .where(and(eq(regularGifts.id, giftId), eq(regularGifts.status, "incomplete")));
    await tx
      .update(donations)
      .set({ status: "cancelled", updatedAt: now })
      .where(and(eq(donations.regularGiftId, giftId), eq(donations.status, "pending")));
  });
  return "cancelled" as const;
}

/**
 * A month's payment failed (Stripe's `invoice.payment_failed`): the gift is failing while the
 * provider retries, if the provider says so, and the donor is told once for that month's bill,
 * with a fresh private link to change their card (issue 34). Staff see the gift under "Failed
 * payments" on /admin/regular-giving and on their home page's to-do list.
 */
export async function giftPaymentFailed(deps: GiftDeps, invoiceId: string) {
  const invoice = await deps.payments.retrieveInvoice(invoiceId);
  if (!invoice.subscriptionId) return undefined;
  const gift = await followSubscription(deps, invoice.subscriptionId);
  // Only a bill still unpaid: a late-delivered failure of a month since paid says nothing.
  if (!gift || gift.status === "cancelled" || invoice.status === "paid" || invoice.paidAt) return gift;
  const now = deps.clock.now();
  const token = crypto.randomBytes(32).toString("base64url");
  const message = await paymentFailedNotice({
    directDebit: gift.paymentMethod === "bacs_debit",
    donorName: gift.donorName,
    email: gift.email,
    amountPence: invoice.amountPence,
    link: `${deps.charity.website.replace(/\/$/, "")}/giving/{{token}}`,
    charity: deps.charity,
  });
  await deps.db.transaction(async (tx) => {
    const queued = await mailInsert(tx, {
      kind: "regular-gift-payment-failed",
      about: invoice.id,
      message,
      sealed: deps.outbox.seal({ token }),
      now,
    }).returning({ id: outbox.id });
    // Told before for this bill (the provider's retries fail again, the webhook comes twice): no new link either.
    if (queued.length === 0) return;
    await tx.insert(regularGiftLinks).values({
      tokenHash: giftLinkHash(token),
      regularGiftId: gift.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + giftLinkLifetimeMs),
    });
  });
  return gift;
}

/**
 * Every month the provider says is paid and we have not recorded, recorded now: after a crash
 * between the provider's charge and our record of it, and on the return page. Answers the
 * donations newly recorded.
 */
export async function catchUpGift(deps: GiftDeps, gift: Pick<GiftRow, "id" | "providerSubscriptionId">) {
  if (!gift.providerSubscriptionId) return [];
  const invoices = await deps.payments.listPaidInvoices(gift.providerSubscriptionId);
  // Months recorded already are passed over without a transaction: the job runs every minute.
  const known = await deps.db
    .select({ invoiceId: donations.providerPaymentId })
    .from(donations)
    .where(
      and(eq(donations.regularGiftId, gift.id), inArray(donations.status, ["paid", "refund_pending", "refunded"])),
    );
  const done = new Set(known.map((row) => row.invoiceId));
  const recorded: { donationId: string; welcome: boolean }[] = [];
  for (const invoice of invoices.filter((paid) => !done.has(paid.id))) {
    const record = await recordGiftInvoice(deps, invoice.id, invoice);
    if (record.outcome === "paid" && record.firstTime) recorded.push(record);
  }
  return recorded;
}

/** The gifts whose payments the offline provider takes: running ones (a later month may be due). */
export async function runningOfflineGifts(db: Queryable) {
  return db
    .select({
      id: regularGifts.id,
      status: regularGifts.status,
      providerSubscriptionId: regularGifts.providerSubscriptionId,
    })
    .from(regularGifts)
    .where(
      and(
        eq(regularGifts.provider, "offline"),
        inArray(regularGifts.status, ["active", "failing", "paused"]),
        isNotNull(regularGifts.providerSubscriptionId),
      ),
    );
}

export type GiftReturn =
  | { kind: "unknown" }
  | { kind: "waiting"; amountPence: number; status: string }
  | {
      kind: "direct-debit";
      amountPence: number;
      giftAidPence: number | null;
      dayOfMonth: number;
      firstCollectionAt: Date;
      thenMonthlyFrom: Date;
      /** The confirmation of the Direct Debit Instruction comes from the site (else from Stripe). */
      noticeBySite: boolean;
    }
  | { kind: "thanks"; amountPence: number; giftAidPence: number | null; dayOfMonth: number; nextPaymentAt: Date };

/**
 * The donor is back from the payment provider at /payment?gift=<id>: the first month's payment is
 * recorded from what the provider says (never from the URL), and its welcome's first attempt made.
 */
export async function regularGiftReturn(
  deps: GiftDeps & {
    outbox: { deliver(kind: "regular-gift-welcome" | "regular-gift-mandate", about: string): Promise<unknown> };
  },
  giftId: string,
): Promise<GiftReturn> {
  if (!isUuid(giftId)) return { kind: "unknown" };
  const [gift] = await deps.db.select().from(regularGifts).where(eq(regularGifts.id, giftId));
  if (!gift?.providerSubscriptionId) return { kind: "unknown" };
  const recorded = await catchUpGift(deps, gift).catch((error: unknown) => {
    console.error(`Asking the provider about regular gift ${giftId} failed:`, (error as Error).message);
    return [];
  });
  for (const { donationId, welcome } of recorded)
    if (welcome) await deps.outbox.deliver("regular-gift-welcome", donationId);
  if (gift.paymentMethod === "bacs_debit" && recorded.length === 0) {
    const bank = await directDebitReturn(deps, gift);
    if (bank) return bank;
  }
  const [first] = await deps.db
    .select()
    .from(donations)
    .where(and(eq(donations.regularGiftId, giftId), eq(donations.status, "paid")))
    .orderBy(asc(donations.billingMonth))
    .limit(1);
  if (!first) return { kind: "waiting", amountPence: gift.amountPence, status: gift.status };
  const declaration = await giftDeclaration(deps.db, giftId);
  return {
    kind: "thanks",
    amountPence: gift.amountPence,
    giftAidPence: declaration ? giftAidPence(gift.amountPence) : null,
    dayOfMonth: gift.dayOfMonth,
    nextPaymentAt: monthlyPaymentDate(monthAfter(first.billingMonth!), gift.dayOfMonth),
  };
}

/**
 * A Direct Debit gift whose first collection is on its way: its mandate is recorded (on Stripe, read
 * from the first payment the Payment Element confirmed; the offline bank form has recorded it
 * already), and the page says when the first payment is collected. Undefined while no bank details
 * are in, or once the first payment is recorded.
 */
async function directDebitReturn(
  deps: GiftDeps & { outbox: { deliver(kind: "regular-gift-mandate", about: string): Promise<unknown> } },
  found: GiftRow,
): Promise<GiftReturn | undefined> {
  let gift = found;
  if (!gift.providerMandateId && gift.providerSubscriptionId) {
    const mandate = await deps.payments.subscriptionMandate(gift.providerSubscriptionId).catch((error: unknown) => {
      console.error(`Asking the provider for regular gift ${gift.id}'s mandate failed:`, (error as Error).message);
      return null;
    });
    if (mandate) gift = (await recordGiftMandate(deps, gift.id, mandate)) ?? gift;
  }
  if (!gift.providerMandateId || gift.status !== "incomplete") return undefined;
  if (deps.payments.bacsNoticesBySite) await deps.outbox.deliver("regular-gift-mandate", gift.providerMandateId);
  const declaration = await giftDeclaration(deps.db, gift.id);
  return {
    kind: "direct-debit",
    amountPence: gift.amountPence,
    giftAidPence: declaration ? giftAidPence(gift.amountPence) : null,
    dayOfMonth: gift.dayOfMonth,
    firstCollectionAt: firstCollectionOf(gift),
    thenMonthlyFrom: secondCollectionAt(gift.createdAt, gift.dayOfMonth),
    noticeBySite: deps.payments.bacsNoticesBySite,
  };
}

/** What the donor's private link shows: which gift, its state, and the months paid. */
export interface GiftByLink {
  amountPence: number;
  dayOfMonth: number;
  status: RegularGiftStatus;
  startedAt: Date;
  payments: { month: string; amountPence: number; paidAt: Date }[];
  giftAid: boolean;
}

/** The gift a private link's token opens, while the link has not expired; undefined otherwise. */
export async function giftByLink(db: Queryable, token: string, now: Date): Promise<GiftByLink | undefined> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  const [link] = await db
    .select({ gift: regularGifts })
    .from(regularGiftLinks)
    .innerJoin(regularGifts, eq(regularGifts.id, regularGiftLinks.regularGiftId))
    .where(and(eq(regularGiftLinks.tokenHash, giftLinkHash(token)), gt(regularGiftLinks.expiresAt, now)));
  if (!link) return undefined;
  const paid = await db
    .select()
    .from(donations)
    .where(and(eq(donations.regularGiftId, link.gift.id), eq(donations.status, "paid")))
    .orderBy(asc(donations.billingMonth));
  return {
    amountPence: link.gift.amountPence,
    dayOfMonth: link.gift.dayOfMonth,
    status: link.gift.status as RegularGiftStatus,
    startedAt: link.gift.createdAt,
    payments: paid.map((d) => ({ month: d.billingMonth!, amountPence: d.amountPence, paidAt: d.paidAt! })),
    giftAid: (await giftDeclaration(db, link.gift.id))?.cancelledAt === null,
  };
}

/**
 * The offline provider's day of payment (the embedded default and the tests): every monthly payment
 * due by the site's clock is taken, then every month paid and not yet recorded is recorded, with
 * its receipt: those just taken, and any a crash left between the charge and our record. A month
 * whose charge failed is told as Stripe's `invoice.payment_failed` is, once per bill (decision 093).
 * Pauses whose end has come end first. On Stripe that is all: Stripe takes the payments and says so
 * through `invoice.paid` and `invoice.payment_failed`.
 */
export async function takeDueGiftPayments(deps: GiftDeps) {
  const offline = deps.payments as Partial<OfflineProvider> & PaymentDeps["payments"];
  await endFinishedPauses(deps);
  if (offline.name !== "offline" || !offline.chargeDueSubscriptions) return [];
  await offline.chargeDueSubscriptions();
  // The bank's answers on Direct Debit payments due by now (decision 092): each mandate's new state
  // is copied (a refused one fails its gift), a failed payment is told once, a paid one recorded.
  const recorded: { donationId: string; welcome: boolean }[] = [];
  if (offline.settleBankPayments) {
    const settled = await offline.settleBankPayments();
    for (const mandateId of settled.mandates) await followMandate(deps, mandateId);
    for (const invoice of settled.failed) await giftPaymentFailed(deps, invoice.id);
    // A first payment settled: its gift, still waiting for it, is not among the running ones below.
    for (const invoice of settled.paid) {
      const record = await recordGiftInvoice(deps, invoice.id, invoice);
      if (record.outcome === "paid" && record.firstTime) recorded.push(record);
    }
  }
  for (const gift of await runningOfflineGifts(deps.db)) {
    recorded.push(...(await catchUpGift(deps, gift)));
    await followFailedMonths(deps, offline as OfflineProvider, gift);
  }
  return recorded;
}

/**
 * The offline provider's failed months, as Stripe's `invoice.payment_failed` and
 * `customer.subscription.deleted` would tell them: each open bill not yet told is told
 * (`giftPaymentFailed`, once per bill by the outbox's key), and a failing gift follows its
 * subscription (active again once paid, cancelled when every retry failed). Asked every run, so a
 * crash between the failed charge and the telling loses nothing.
 */
async function followFailedMonths(
  deps: GiftDeps,
  offline: OfflineProvider,
  gift: Pick<GiftRow, "status" | "providerSubscriptionId">,
) {
  const open = await offline.listOpenInvoices(gift.providerSubscriptionId!);
  for (const bill of open) {
    const [told] = await deps.db
      .select({ id: outbox.id })
      .from(outbox)
      .where(eq(outbox.dedupeKey, mailKey("regular-gift-payment-failed", bill.id)));
    if (!told) await giftPaymentFailed(deps, bill.id);
  }
  if (open.length > 0 || gift.status === "failing") await followSubscription(deps, gift.providerSubscriptionId!);
}

/**
 * Pauses whose end has come: the gift runs again (the provider resumes by itself on its side), with
 * an entry in its history. Run before the day's payments are taken.
 */
export async function endFinishedPauses(deps: { db: Database; clock: { now(): Date } }) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const ended = await tx
      .update(regularGifts)
      .set({ status: "active", pausedUntil: null, updatedAt: now })
      .where(and(eq(regularGifts.status, "paused"), lte(regularGifts.pausedUntil, now)))
      .returning({ id: regularGifts.id });
    for (const { id } of ended) {
      await recordAudit(tx, {
        staff: { id: null, email: "the site, when the pause ended" },
        action: "regular-gift.resumed",
        subject: `regular-gift:${id}`,
        summary: "The pause ended: the monthly gift runs again",
        at: now,
      });
    }
    return ended.length;
  });
}
