import crypto from "node:crypto";
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import type { Queryable } from "~/infra/db/database.server";
import { composeLetter, type Block, type Line } from "~/infra/email/letter.server";
import { queueMail } from "~/infra/email/outbox.server";
import { providerUnavailable, type PaymentDeps, type SubscriptionChange } from "~/infra/payments/provider.server";
import type { OfflineProvider } from "~/infra/payments/offline.server";
import type { RateLimiter } from "~/infra/rate-limit.server";
import {
  billingMonthOf,
  monthAfter,
  monthlyPaymentDate,
  monthsBetween,
  nextPaymentDate,
  startOfPaymentDay,
} from "~/lib/billing-month";
import { parseDonationAmount } from "~/lib/donation-amount";
import { AppError } from "~/lib/errors";
import { giftAidSchema } from "~/lib/gift-aid-declaration";
import { fieldErrors } from "~/lib/forms";
import { londonDayWords } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import type { PaymentCard } from "~/lib/payment-card";
import type { CardDetails } from "~/lib/test-cards";
import { maskedAccount, noticeDeadline, sortCodeWords, type BankDetails, type BankField } from "~/lib/bacs";
import { advanceNotice } from "./direct-debit-notices.server";
import { noticeMandateOf, recordGiftMandate } from "./direct-debit.server";
import { emailField } from "~/lib/validation";
import { donations, giftAidDeclarations, regularGiftLinks, regularGifts, type WaitingDeclaration } from "~db/schema";
import { catchUpGift, giftLinkHash, type GiftDeps } from "./regular-gifts.server";
import {
  dayOfMonthWords,
  declarationWording,
  donationMessages,
  giftDays,
  longestPause,
  regularGiftMessages,
  regularGiftScope,
  type RegularGiftStatus,
} from "./schema";
import { sendRegularGiftLink } from "./staff-regular-gifts.server";

// A donor manages their own monthly gift through its private link, with no account
// (docs/decisions/090-donors-manage-their-gift.md): the amount and the day from the next payment,
// a pause of one to three months, a cancellation, Gift Aid declared or withdrawn. Each change is
// made at the provider first (it takes the money), then recorded with its audit entry (subject
// `regular-gift:<id>`, which the staff gift page lists) and a short letter to the donor, together.

type GiftRow = typeof regularGifts.$inferSelect;

/** Who the audit log names for a change made through the private link: there is no account. */
export const donorByLink = { id: null, email: "the donor, by their private link" } as const;

export const giftChangeMessages = {
  gone: "This link has expired or is not right. Ask for a fresh one at /giving.",
  cancelled: "This monthly gift is cancelled, so it cannot be changed.",
  notStarted: "This monthly gift's first payment has not been taken yet, so it cannot be changed.",
  sameAmount: "That is the amount your gift is already.",
  sameDay: "Your gift is already taken on that day.",
  months: `Please choose to pause for 1, 2 or ${longestPause} months.`,
  paused: "Your gift is already paused.",
  notPaused: "Your gift is not paused.",
  failing: "Your last payment failed: please change your card before pausing your gift.",
  notBank: "This monthly gift is paid by card: change your card instead.",
  byBank: "This monthly gift is paid by Direct Debit: change your bank details instead.",
  failingBank: "Your last Direct Debit payment failed: please check your bank details before pausing your gift.",
  tooSoonOnStripe:
    "Your next Direct Debit payment is too close to change now: please make this change after it has been collected.",
  declared: "Gift Aid is already declared on your gift.",
  notDeclared: "There is no Gift Aid declaration on your gift to withdraw.",
  email: donationMessages.email,
  linksSent:
    "If that address has a monthly gift with us, we have e-mailed a fresh link to it. It can take a few minutes to arrive.",
} as const;

/** What a change needs: the provider, the database, the clock, the charity and the outbox's seal. */
export type ChangeDeps = Pick<GiftDeps, "db" | "payments" | "clock" | "charity" | "outbox">;

/** The gift a link's token opens, while the link works; else the link's AppError. */
async function giftOfLink(db: Queryable, token: string, now: Date): Promise<GiftRow> {
  if (/^[A-Za-z0-9_-]{20,100}$/.test(token)) {
    const [link] = await db
      .select({ gift: regularGifts })
      .from(regularGiftLinks)
      .innerJoin(regularGifts, eq(regularGifts.id, regularGiftLinks.regularGiftId))
      .where(and(eq(regularGiftLinks.tokenHash, giftLinkHash(token)), sql`${regularGiftLinks.expiresAt} > ${now}`));
    if (link) return link.gift;
  }
  throw new AppError("not-found", giftChangeMessages.gone);
}

/** A gift the donor may change: started, not cancelled. */
function changeable(gift: GiftRow) {
  if (gift.status === "cancelled") throw new AppError("conflict", giftChangeMessages.cancelled);
  if (gift.status === "incomplete") throw new AppError("conflict", giftChangeMessages.notStarted);
}

/** The latest month paid of a gift (YYYY-MM), if any. */
export async function lastPaidMonth(db: Queryable, giftId: string): Promise<string | null> {
  const [row] = await db
    .select({ month: donations.billingMonth })
    .from(donations)
    .where(and(eq(donations.regularGiftId, giftId), eq(donations.status, "paid")))
    .orderBy(desc(donations.billingMonth))
    .limit(1);
  return row?.month ?? null;
}

/** A pause that has ended by `now` no longer holds: the gift runs (endFinishedPauses records it). */
function pauseOf(gift: GiftRow, now: Date): Date | null {
  return gift.status === "paused" && gift.pausedUntil && gift.pausedUntil > now ? gift.pausedUntil : null;
}

/** When the gift's next payment is taken, as things stand. */
export async function nextPaymentOf(db: Queryable, gift: GiftRow, now: Date): Promise<Date | null> {
  if (gift.status === "cancelled" || gift.status === "incomplete") return null;
  return nextPaymentDate({
    dayOfMonth: gift.dayOfMonth,
    lastPaidMonth: await lastPaidMonth(db, gift.id),
    pausedUntil: pauseOf(gift, now),
    now,
  });
}

/** "December 2026" for "2026-12". */
function monthWords(month: string): string {
  return londonDayWords(monthlyPaymentDate(month, 15)).replace(/^\w+ \d+ /, "");
}

/** "January, February and March 2027"-like list: each month in full. */
function monthList(months: string[]): string {
  const words = months.map(monthWords);
  return words.length < 2 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

interface Recorded {
  action: Parameters<typeof recordAudit>[1]["action"];
  /** For the audit log: names no member of the public. */
  summary: string;
  /** The letter's subject line, after "Your monthly gift: ". */
  subject: string;
  /** What changed and from when, for the letter. */
  lines: Line[];
  /**
   * A Direct Debit change of amount or date: the letter is the advance notice the Bacs scheme asks
   * for (where the site sends the notices), naming the first collection it applies to.
   */
  notice?: { amountPence: number; dayOfMonth: number; from: Date };
  /** No letter of its own: another e-mail (a new mandate's confirmation) says it. */
  silent?: boolean;
}

/**
 * Records a change made at the provider: the gift's row as `set`, the audit entry and the letter,
 * in one transaction, once the gift's row is locked and `still` holds of it.
 */
async function record(
  deps: ChangeDeps,
  gift: GiftRow,
  still: (locked: GiftRow) => boolean,
  set: Partial<GiftRow>,
  change: Recorded,
  extra?: (tx: Queryable, now: Date) => Promise<void>,
) {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(regularGifts).where(eq(regularGifts.id, gift.id)).for("update");
    if (!locked || !still(locked)) throw new AppError("conflict", "Your gift changed meanwhile: please look again.");
    await tx
      .update(regularGifts)
      .set({ ...set, updatedAt: now })
      .where(eq(regularGifts.id, gift.id));
    await extra?.(tx, now);
    await recordAudit(tx, {
      staff: donorByLink,
      action: change.action,
      subject: `regular-gift:${gift.id}`,
      summary: change.summary,
      at: now,
    });
    if (change.silent) return;
    const mandate = noticeMandateOf(gift);
    if (change.notice && mandate && gift.paymentMethod === "bacs_debit" && deps.payments.bacsNoticesBySite) {
      await queueMail(tx, {
        kind: "regular-gift-advance-notice",
        about: crypto.randomUUID(),
        message: await advanceNotice({
          donorName: gift.donorName,
          email: gift.email,
          charity: deps.charity,
          mandate,
          lines: change.lines,
          subject: change.subject,
          ...change.notice,
        }),
        now,
      });
      return;
    }
    await queueMail(tx, {
      kind: "regular-gift-changed",
      about: crypto.randomUUID(),
      message: await changeLetter(gift, deps.charity, change),
      now,
    });
  });
}

/** The same day of the month after a payment's. */
const paymentAfter = (payment: Date, dayOfMonth: number) =>
  monthlyPaymentDate(monthAfter(billingMonthOf(payment)), dayOfMonth);

/**
 * A Direct Debit's next collection the Bacs notice period has already reached (decision 092): it
 * goes ahead as the donor was told, and a change applies from the one after. Undefined for a card,
 * a collection far enough ahead to be told of a change first, or where Stripe sends the notices
 * (it then times its own). Stripe is not asked to hold a change back, so where the site sends the
 * notices for Stripe the change waits until that collection is made.
 */
function committedCollection(deps: ChangeDeps, gift: GiftRow, next: Date, now: Date): Date | undefined {
  if (gift.paymentMethod !== "bacs_debit" || !deps.payments.bacsNoticesBySite) return undefined;
  if (next >= noticeDeadline(now)) return undefined;
  if (deps.payments.name !== "offline") throw new AppError("conflict", giftChangeMessages.tooSoonOnStripe);
  return next;
}

/** Whether the site must keep the Bacs notice period itself: a Direct Debit whose notices it sends. */
const siteGivesNotice = (deps: ChangeDeps, gift: GiftRow) =>
  gift.paymentMethod === "bacs_debit" && deps.payments.bacsNoticesBySite;

function changeLetter(gift: GiftRow, charity: PaymentDeps["charity"], change: Recorded) {
  const blocks: Block[] = [
    ...change.lines.map((line) => ({ paragraph: line })),
    {
      paragraph: `If you did not make this change, please reply to this e-mail and we will put it right. Every receipt of your gift brings its private link, and ${charity.website.replace(/\/$/, "")}/giving sends a fresh one.`,
    },
  ];
  return composeLetter({
    to: { name: gift.donorName, address: gift.email },
    subject: `Your monthly gift to ${charity.name}: ${change.subject}`,
    title: "Your monthly gift",
    greeting: `Dear ${gift.donorName},`,
    blocks,
    charity,
  });
}

async function atProvider(deps: ChangeDeps, gift: GiftRow, change: SubscriptionChange, what: string) {
  if (!gift.providerSubscriptionId) return;
  try {
    await deps.payments.changeSubscription(gift.providerSubscriptionId, change);
  } catch (error) {
    throw providerUnavailable(error, `${what} of monthly gift ${gift.id}`);
  }
}

const day = (moment: Date) => londonDayWords(moment);

/** The amount, from the next payment (the same bounds as a gift: £1 to £10,000). */
export async function changeGiftAmount(deps: ChangeDeps, token: string, input: { amount: string }) {
  const now = deps.clock.now();
  const gift = await giftOfLink(deps.db, token, now);
  changeable(gift);
  const amount = parseDonationAmount(input.amount);
  if (!amount.ok) throw new AppError("invalid", amount.message, { fields: { amount: amount.message } });
  if (amount.pence === gift.amountPence) {
    throw new AppError("invalid", giftChangeMessages.sameAmount, { fields: { amount: giftChangeMessages.sameAmount } });
  }
  const upcoming = (await nextPaymentOf(deps.db, gift, now))!;
  // A Direct Debit collection already notified is taken as it stands; the change follows it.
  const committed = committedCollection(deps, gift, upcoming, now);
  const next = committed ? paymentAfter(committed, gift.dayOfMonth) : upcoming;
  await atProvider(
    deps,
    gift,
    { amountPence: amount.pence, ...(committed && { afterNextPayment: true }) },
    "changing the amount",
  );
  const [from, to] = [formatPounds(gift.amountPence), formatPounds(amount.pence)];
  const kept = committed ? ` Your payment on ${day(committed)} stays ${from}, as we told you.` : "";
  await record(
    deps,
    gift,
    (locked) => locked.status !== "cancelled",
    { amountPence: amount.pence },
    {
      action: "regular-gift.amount-changed",
      summary: `Changed the monthly gift from ${from} to ${to}, from the payment on ${day(next)}`,
      subject: `now ${to} a month`,
      lines: [
        committed
          ? `Your monthly gift is now ${to} (it was ${from}), from your payment on ${day(next)}.${kept}`
          : `Your monthly gift is now ${to} (it was ${from}), from your next payment on ${day(next)}.`,
      ],
      notice: { amountPence: amount.pence, dayOfMonth: gift.dayOfMonth, from: next },
    },
  );
  return {
    message: committed
      ? `Your gift is now ${to} a month, from your payment on ${day(next)}.${kept}`
      : `Your gift is now ${to} a month, from your next payment on ${day(next)}.`,
  };
}

/**
 * The day of the month, 1 to 28: from the next payment not yet taken whose new date is still ahead.
 * A month whose payment would be skipped by it (this month's new day has passed, unpaid) is named.
 */
export async function changeGiftDay(deps: ChangeDeps, token: string, input: { dayOfMonth: string }) {
  const now = deps.clock.now();
  const gift = await giftOfLink(deps.db, token, now);
  changeable(gift);
  const text = input.dayOfMonth.trim();
  const newDay = /^\d{1,2}$/.test(text) ? Number(text) : NaN;
  if (!(newDay >= giftDays.first && newDay <= giftDays.last)) {
    throw new AppError("invalid", regularGiftMessages.dayOfMonth, {
      fields: { dayOfMonth: regularGiftMessages.dayOfMonth },
    });
  }
  if (newDay === gift.dayOfMonth) {
    throw new AppError("invalid", giftChangeMessages.sameDay, { fields: { dayOfMonth: giftChangeMessages.sameDay } });
  }
  const paidMonth = await lastPaidMonth(deps.db, gift.id);
  const pause = pauseOf(gift, now);
  // A pause ends on the new day of the month it ended in.
  const pausedUntil = pause ? startOfPaymentDay(billingMonthOf(pause), newDay) : null;
  const before = nextPaymentDate({ dayOfMonth: gift.dayOfMonth, lastPaidMonth: paidMonth, pausedUntil: pause, now });
  // A Direct Debit collection already notified is taken as it stands; the new day follows it, and
  // is never sooner than the notice the Guarantee promises (decision 092).
  const committed = committedCollection(deps, gift, before, now);
  const afterMonth = committed ? billingMonthOf(committed) : paidMonth;
  let next = nextPaymentDate({ dayOfMonth: newDay, lastPaidMonth: afterMonth, pausedUntil, now });
  if (siteGivesNotice(deps, gift) && next < noticeDeadline(now)) {
    next = nextPaymentDate({ dayOfMonth: newDay, lastPaidMonth: billingMonthOf(next), pausedUntil, now });
  }
  const skipped = monthsBetween(
    committed ? monthAfter(billingMonthOf(committed)) : billingMonthOf(before),
    billingMonthOf(next),
  ).slice(0, -1);
  await atProvider(
    deps,
    gift,
    {
      dayOfMonth: newDay,
      nextPaymentAt: next,
      ...(pausedUntil && { pause: { resumesAt: pausedUntil } }),
      ...(committed && { afterNextPayment: true }),
    },
    "changing the day",
  );
  const words = dayOfMonthWords(newDay);
  const skippedWords =
    (committed ? ` Your payment on ${day(committed)} is collected as we told you.` : "") +
    (skipped.length ? ` No payment is taken in ${monthList(skipped)}: its new day has passed.` : "");
  await record(
    deps,
    gift,
    (locked) => locked.status !== "cancelled",
    { dayOfMonth: newDay, ...(pausedUntil && { pausedUntil }) },
    {
      action: "regular-gift.day-changed",
      summary: `Changed the day from ${dayOfMonthWords(gift.dayOfMonth)} to ${words}, from the payment on ${day(next)}${skipped.length ? `; no payment in ${monthList(skipped)}` : ""}`,
      subject: `now taken on ${words} of the month`,
      lines: [
        `Your monthly gift is now taken on ${words} of each month (it was ${dayOfMonthWords(gift.dayOfMonth)}). Your next payment is on ${day(next)}.${skippedWords}`,
      ],
      notice: { amountPence: gift.amountPence, dayOfMonth: newDay, from: next },
    },
  );
  return {
    message: `Your gift is now taken on ${words} of each month. Your next payment is on ${day(next)}.${skippedWords}`,
  };
}

/** A pause of 1 to 3 months: those months' payments are not taken, and the gift resumes by itself. */
export async function pauseGift(deps: ChangeDeps, token: string, input: { months: string }) {
  const now = deps.clock.now();
  const gift = await giftOfLink(deps.db, token, now);
  changeable(gift);
  const months = /^[1-9]$/.test(input.months.trim()) ? Number(input.months.trim()) : NaN;
  if (!(months >= 1 && months <= longestPause)) {
    throw new AppError("invalid", giftChangeMessages.months, { fields: { months: giftChangeMessages.months } });
  }
  if (pauseOf(gift, now)) throw new AppError("conflict", giftChangeMessages.paused);
  if (gift.status === "failing") {
    const bank = gift.paymentMethod === "bacs_debit";
    throw new AppError("conflict", bank ? giftChangeMessages.failingBank : giftChangeMessages.failing);
  }
  const first = billingMonthOf((await nextPaymentOf(deps.db, { ...gift, status: "active" }, now))!);
  const skipped = [first];
  while (skipped.length < months) skipped.push(monthAfter(skipped.at(-1)!));
  const resumeMonth = monthAfter(skipped.at(-1)!);
  const resumesAt = monthlyPaymentDate(resumeMonth, gift.dayOfMonth);
  const pausedUntil = startOfPaymentDay(resumeMonth, gift.dayOfMonth);
  await atProvider(deps, gift, { pause: { resumesAt: pausedUntil }, nextPaymentAt: resumesAt }, "pausing");
  await record(
    deps,
    gift,
    // A pause whose end has come (not yet recorded by the day's run) may be followed by another.
    (locked) => locked.status === "active" || (locked.status === "paused" && pauseOf(locked, now) === null),
    { status: "paused", pausedUntil },
    {
      action: "regular-gift.paused",
      summary: `Paused the monthly gift: no payment in ${monthList(skipped)}; it resumes on ${day(resumesAt)}`,
      subject: "paused",
      lines: [
        `Your monthly gift is paused: no payment is taken in ${monthList(skipped)}.`,
        `It starts again by itself with your payment of ${formatPounds(gift.amountPence)} on ${day(resumesAt)}. To start it sooner, use Resume on your gift's page.`,
      ],
    },
  );
  return { message: `Your gift is paused: no payment in ${monthList(skipped)}. It resumes on ${day(resumesAt)}.` };
}

/** Ends a pause now: the next payment is the donor's day of the first month not paid still ahead. */
export async function resumeGift(deps: ChangeDeps, token: string) {
  const now = deps.clock.now();
  const gift = await giftOfLink(deps.db, token, now);
  changeable(gift);
  if (!pauseOf(gift, now)) throw new AppError("conflict", giftChangeMessages.notPaused);
  let next = (await nextPaymentOf(deps.db, { ...gift, status: "active", pausedUntil: null }, now))!;
  // A Direct Debit starts again no sooner than the notice the Guarantee promises (decision 092).
  if (siteGivesNotice(deps, gift) && next < noticeDeadline(now)) next = paymentAfter(next, gift.dayOfMonth);
  await atProvider(deps, gift, { pause: null, nextPaymentAt: next }, "resuming");
  await record(
    deps,
    gift,
    (locked) => pauseOf(locked, now) !== null,
    { status: "active", pausedUntil: null },
    {
      action: "regular-gift.resumed",
      summary: `Resumed the monthly gift: the next payment is on ${day(next)}`,
      subject: "started again",
      lines: [
        `Your monthly gift of ${formatPounds(gift.amountPence)} has started again: your next payment is on ${day(next)}.`,
      ],
      notice: { amountPence: gift.amountPence, dayOfMonth: gift.dayOfMonth, from: next },
    },
  );
  return { message: `Your gift has started again: your next payment is on ${day(next)}.` };
}

/** Cancels the gift at the provider, then here: no further payment. What was given stays given. */
export async function cancelGiftByDonor(deps: ChangeDeps, token: string) {
  const now = deps.clock.now();
  const gift = await giftOfLink(deps.db, token, now);
  if (gift.status === "cancelled") return { message: "Your monthly gift is cancelled." };
  if (gift.providerSubscriptionId) {
    try {
      await deps.payments.cancelSubscription(gift.providerSubscriptionId);
    } catch (error) {
      throw providerUnavailable(error, `cancelling monthly gift ${gift.id}`);
    }
  }
  await record(
    deps,
    gift,
    (locked) => locked.status !== "cancelled",
    { status: "cancelled", cancelledAt: now, pausedUntil: null },
    {
      action: "regular-gift.cancelled-by-donor",
      summary: `Cancelled the monthly gift of ${formatPounds(gift.amountPence)}`,
      subject: "cancelled",
      lines: [
        `Your monthly gift of ${formatPounds(gift.amountPence)} is cancelled from today, ${day(now)}: no further payment will be taken.`,
        "Thank you for every month you gave: it has made a real difference in Kilele.",
      ],
    },
  );
  return { message: "Your monthly gift is cancelled. No further payment will be taken. Thank you for all you gave." };
}

/** Declarations that reach forward from now for this donor (their address, any case), still standing. */
async function standingDeclarations(db: Queryable, email: string) {
  return db
    .select({ id: giftAidDeclarations.id })
    .from(giftAidDeclarations)
    .innerJoin(donations, eq(donations.id, giftAidDeclarations.donationId))
    .where(
      and(
        sql`lower(${donations.email}) = ${email.trim().toLowerCase()}`,
        inArray(giftAidDeclarations.scope, [regularGiftScope, "past-four-years-and-future"]),
        isNull(giftAidDeclarations.cancelledAt),
        isNotNull(donations.paidAt),
      ),
    );
}

/** Whether Gift Aid is claimed on the gift's next payment: a declaration stands, or waits for it. */
export async function giftAidStands(db: Queryable, gift: Pick<GiftRow, "email" | "declarationWaiting">) {
  return gift.declarationWaiting !== null || (await standingDeclarations(db, gift.email)).length > 0;
}

/**
 * Gift Aid declared on the gift's page, in HMRC's enduring words as the monthly form has them: it
 * is made with the next payment's donation (recordGiftInvoice), so it covers that payment and later
 * ones, never one already made.
 */
export async function declareGiftAid(deps: ChangeDeps, token: string, input: Record<string, string>) {
  const now = deps.clock.now();
  const gift = await giftOfLink(deps.db, token, now);
  changeable(gift);
  const checked = giftAidSchema.safeParse({ ...input, scope: "this-donation" });
  if (!checked.success) {
    throw new AppError("invalid", donationMessages.summary, { fields: fieldErrors(checked.error) });
  }
  if (await giftAidStands(deps.db, gift)) throw new AppError("conflict", giftChangeMessages.declared);
  const { firstName, surname, houseNameOrNumber, postcode } = checked.data;
  const waiting: WaitingDeclaration = {
    firstName,
    surname,
    houseNameOrNumber,
    postcode,
    wording: declarationWording(regularGiftScope, gift.amountPence, deps.charity.name),
    declaredAt: now.toISOString(),
  };
  const next = await nextPaymentOf(deps.db, gift, now);
  const from = next ? `from your next payment on ${day(next)}` : "from your next payment";
  await record(
    deps,
    gift,
    (locked) => locked.declarationWaiting === null,
    { declarationWaiting: waiting },
    {
      action: "regular-gift.gift-aid-declared",
      summary: `Declared Gift Aid on the monthly gift, ${from.replace("your ", "the ")}`,
      subject: "Gift Aid declared",
      lines: [
        `Thank you: Gift Aid is claimed on your monthly gift ${from}, adding 25p to every £1 at no cost to you.`,
        `On ${day(now)} you declared: "${waiting.wording}"`,
        "Please tell us if you stop paying enough Income Tax or Capital Gains Tax, change your name or home address, or want to withdraw this declaration: your gift's page has a button for that.",
      ],
    },
  );
  return { message: `Thank you: Gift Aid is claimed on your gift ${from}.` };
}

/**
 * Gift Aid withdrawn: the donor's standing declarations are cancelled now, so no later payment is
 * claimed; payments made before stay covered (decision 089's rule for a cancelled declaration).
 */
export async function withdrawGiftAid(deps: ChangeDeps, token: string) {
  const now = deps.clock.now();
  const gift = await giftOfLink(deps.db, token, now);
  changeable(gift);
  if (!(await giftAidStands(deps.db, gift))) throw new AppError("conflict", giftChangeMessages.notDeclared);
  await record(
    deps,
    gift,
    () => true,
    { declarationWaiting: null },
    {
      action: "regular-gift.gift-aid-withdrawn",
      summary: "Withdrew the Gift Aid declaration: later payments are not claimed",
      subject: "Gift Aid withdrawn",
      lines: [
        `Your Gift Aid declaration is withdrawn from today, ${day(now)}: we will not claim Gift Aid on your later payments, nor on other gifts you make to us from today. Payments made before today stay Gift Aided.`,
      ],
    },
    async (tx, at) => {
      const ids = (await standingDeclarations(tx, gift.email)).map((row) => row.id);
      if (ids.length === 0) return;
      await tx
        .update(giftAidDeclarations)
        .set({ cancelledAt: at, cancelledBy: donorByLink.email })
        .where(inArray(giftAidDeclarations.id, ids));
    },
  );
  return { message: "Your Gift Aid declaration is withdrawn: later payments will not be claimed." };
}

/** /giving's form: the address to send fresh links to. */
export function readLinkRequest(input: { email: string }): string {
  const parsed = emailField(giftChangeMessages.email, 99).safeParse(input.email);
  if (!parsed.success)
    throw new AppError("invalid", giftChangeMessages.email, { fields: { email: giftChangeMessages.email } });
  return parsed.data;
}

/**
 * `/giving`: a fresh link to each of the address's gifts that are not cancelled, e-mailed to that
 * address. The answer is the same whether or not the address has a gift; a visitor's address is
 * limited (too many, and they are told), and so is each e-mail address (beyond it, nothing is sent,
 * and the answer is the same).
 */
export async function sendLinksTo(
  deps: Pick<GiftDeps, "db" | "clock" | "charity" | "outbox"> & {
    limits: { givingLinksByAddress: RateLimiter; givingLinksByEmail: RateLimiter };
  },
  input: { email: string },
  clientAddress: string,
): Promise<{ message: string; sent: number }> {
  const now = deps.clock.now();
  const limit = await deps.limits.givingLinksByAddress.count(clientAddress, now);
  if (!limit.allowed) {
    throw new AppError("too-many-requests", "Too many requests from your address. Please wait and try again.", {
      headers: { "Retry-After": String(limit.retryAfterSeconds) },
    });
  }
  const email = readLinkRequest(input);
  const key = email.toLowerCase();
  if (!(await deps.limits.givingLinksByEmail.attempt(key, now)))
    return { message: giftChangeMessages.linksSent, sent: 0 };
  const gifts = await deps.db
    .select({ id: regularGifts.id })
    .from(regularGifts)
    .where(
      and(sql`lower(${regularGifts.email}) = ${key}`, inArray(regularGifts.status, ["active", "failing", "paused"])),
    );
  for (const gift of gifts) await sendRegularGiftLink(deps, null, gift.id);
  return { message: giftChangeMessages.linksSent, sent: gifts.length };
}

/** What the donor's page shows and offers: the gift, its next payment, its pause and Gift Aid. */
export interface GiftPage {
  amountPence: number;
  dayOfMonth: number;
  status: RegularGiftStatus;
  startedAt: Date;
  nextPaymentAt: Date | null;
  /** While paused: the day the payments start again. */
  resumesAt: Date | null;
  payments: { month: string; amountPence: number; paidAt: Date }[];
  /** Gift Aid stands for the next payment; `giftAidFromNext`: declared here, made with the next payment. */
  giftAid: boolean;
  giftAidFromNext: boolean;
  /** What the declaration form fills in: the names on the gift. */
  donorName: string;
  /** How it is paid, and for a Direct Debit the account it is collected from (decision 092). */
  paymentMethod: string;
  bank: { accountName: string; sortCode: string; last4: string; reference: string; status: string | null } | null;
}

/** The gift a private link opens, while it works, for the donor's page; undefined otherwise. */
export async function giftPage(db: Queryable, token: string, now: Date): Promise<GiftPage | undefined> {
  const gift = await giftOfLink(db, token, now).catch((error: unknown) => {
    if (error instanceof AppError) return undefined;
    throw error;
  });
  if (!gift) return undefined;
  const pause = pauseOf(gift, now);
  // A pause whose end has come is over, whether or not the day's run has recorded it yet.
  const status = (gift.status === "paused" && !pause ? "active" : gift.status) as RegularGiftStatus;
  const paid = await db
    .select()
    .from(donations)
    .where(and(eq(donations.regularGiftId, gift.id), eq(donations.status, "paid")))
    .orderBy(asc(donations.billingMonth));
  const nextPaymentAt = await nextPaymentOf(db, gift, now);
  return {
    amountPence: gift.amountPence,
    dayOfMonth: gift.dayOfMonth,
    status,
    startedAt: gift.createdAt,
    nextPaymentAt,
    resumesAt: pause ? nextPaymentAt : null,
    payments: paid.map((d) => ({ month: d.billingMonth!, amountPence: d.amountPence, paidAt: d.paidAt! })),
    giftAid: await giftAidStands(db, gift),
    giftAidFromNext: gift.declarationWaiting !== null,
    donorName: gift.donorName,
    paymentMethod: gift.paymentMethod,
    bank: noticeMandateOf(gift) && { ...noticeMandateOf(gift)!, status: gift.mandateStatus },
  };
}

/** Which of the card form's fields a card problem is about (Stripe's words, app/lib/test-cards.ts). */
function cardField(problem: string): "cardnumber" | "exp-date" | "cvc" {
  if (/expiration/.test(problem)) return "exp-date";
  if (/security code/.test(problem)) return "cvc";
  return "cardnumber";
}

/** Records a card the provider has saved for the gift's later payments: its history and letter. */
async function recordCard(deps: ChangeDeps, gift: GiftRow, card: PaymentCard | null) {
  const now = deps.clock.now();
  const next = await nextPaymentOf(deps.db, gift, now);
  const which = card ? `your ${cardBrandName(card.brand)} card ending ${card.last4}` : "your new card";
  await record(
    deps,
    gift,
    (locked) => locked.status !== "cancelled",
    {},
    {
      action: "regular-gift.card-changed",
      summary: `Changed the card for later payments${next ? `, from the payment on ${day(next)}` : ""}`,
      subject: "new card saved",
      lines: [
        `Your monthly gift is now paid from ${which}${next ? `, from your next payment on ${day(next)}` : ""}. The old card is not used again for it.`,
      ],
    },
  );
  return { message: `Your new card is saved: ${which} pays your gift${next ? ` from ${day(next)}` : ""}.` };
}

const cardBrandName = (brand: string) =>
  brand === "amex" ? "American Express" : brand[0]!.toUpperCase() + brand.slice(1);

/**
 * A new card on the offline provider (the embedded default and the tests): Stripe's test cards,
 * checked as the card form checks them; a refused card changes nothing and says why beside its field.
 */
export async function changeGiftCard(deps: ChangeDeps, token: string, card: CardDetails) {
  const now = deps.clock.now();
  const gift = await giftOfLink(deps.db, token, now);
  changeable(gift);
  if (gift.paymentMethod === "bacs_debit") throw new AppError("conflict", giftChangeMessages.byBank);
  const offline = deps.payments as Partial<OfflineProvider>;
  if (!offline.changeSubscriptionCard || !gift.providerSubscriptionId) {
    throw new AppError("invalid", "Please use the card form on your gift's page to change your card.");
  }
  let result: Awaited<ReturnType<OfflineProvider["changeSubscriptionCard"]>>;
  try {
    result = await offline.changeSubscriptionCard(gift.providerSubscriptionId, card);
  } catch (error) {
    throw providerUnavailable(error, `changing the card of monthly gift ${gift.id}`);
  }
  if ("error" in result)
    throw new AppError("card-declined", result.error, { fields: { [cardField(result.error)]: result.error } });
  // A failed month's bill the new card has just paid is recorded and receipted now (decision 093);
  // if this fails, the minute's payment run records it.
  await catchUpGift(deps, gift).catch((error: unknown) => {
    console.error(
      `Recording the months of monthly gift ${gift.id} after its card change failed:`,
      (error as Error).message,
    );
  });
  return recordCard(deps, gift, result.card);
}

/** Stripe: a SetupIntent for the gift's customer, for the page's Payment Element to confirm. */
export async function startGiftCardChange(deps: ChangeDeps, token: string) {
  const gift = await giftOfLink(deps.db, token, deps.clock.now());
  changeable(gift);
  if (gift.paymentMethod === "bacs_debit") throw new AppError("conflict", giftChangeMessages.byBank);
  if (!gift.providerSubscriptionId) throw new AppError("conflict", giftChangeMessages.notStarted);
  try {
    return await deps.payments.startCardChange(gift.providerSubscriptionId);
  } catch (error) {
    throw providerUnavailable(error, `starting a card change of monthly gift ${gift.id}`);
  }
}

/**
 * Stripe: the SetupIntent the browser confirmed becomes the subscription's default payment method,
 * once Stripe says it succeeded (never on the browser's word), and the change is recorded.
 */
export async function finishGiftCardChange(deps: ChangeDeps, token: string, setupId: string) {
  const gift = await giftOfLink(deps.db, token, deps.clock.now());
  changeable(gift);
  if (gift.paymentMethod === "bacs_debit") throw new AppError("conflict", giftChangeMessages.byBank);
  if (!gift.providerSubscriptionId || !/^seti_\w{1,100}$/.test(setupId)) {
    throw new AppError("invalid", "Your card was not confirmed, so nothing has changed.");
  }
  let result: Awaited<ReturnType<ChangeDeps["payments"]["finishCardChange"]>>;
  try {
    result = await deps.payments.finishCardChange(gift.providerSubscriptionId, setupId);
  } catch (error) {
    throw providerUnavailable(error, `saving the new card of monthly gift ${gift.id}`);
  }
  if ("error" in result) throw new AppError("card-declined", result.error);
  return recordCard(deps, gift, result.card);
}

/** Which of the bank form's fields an offline refusal is about (app/lib/bacs.ts). */
function bankRefused(errors: Partial<Record<BankField, string>>): never {
  const first = Object.values(errors)[0] ?? "Please check your bank details.";
  throw new AppError("invalid", first, { fields: errors });
}

/** A Direct Debit gift, running: the only kind whose bank details can change. */
function bankGift(gift: GiftRow) {
  changeable(gift);
  if (gift.paymentMethod !== "bacs_debit") throw new AppError("conflict", giftChangeMessages.notBank);
}

/**
 * Records a new mandate the provider has made for the gift (new bank details): the gift's copy of
 * it, the audit entry, and the new Instruction's confirmation (which is the donor's letter where the
 * site sends the Bacs notices; else a short letter, and the provider's own confirmation).
 */
async function recordBank(deps: ChangeDeps, gift: GiftRow, mandate: Parameters<typeof recordGiftMandate>[2]) {
  const now = deps.clock.now();
  const next = await nextPaymentOf(deps.db, gift, now);
  const account = `account ${maskedAccount(mandate.last4)}, sort code ${sortCodeWords(mandate.sortCode)}`;
  await record(
    deps,
    gift,
    (locked) => locked.status !== "cancelled",
    {},
    {
      action: "regular-gift.bank-changed",
      summary: `Changed the bank details for later payments: Direct Debit from ${account}, Instruction ${mandate.reference}${next ? `, from the payment on ${day(next)}` : ""}`,
      subject: "new bank details saved",
      lines: [
        `Your monthly gift is now collected by Direct Debit from ${account}${next ? `, from your next payment on ${day(next)}` : ""}. The old Instruction is not used again for it.`,
      ],
      silent: deps.payments.bacsNoticesBySite,
    },
  );
  await recordGiftMandate(deps, gift.id, mandate, { nextCollectionAt: next ?? now });
  return {
    message: `Your new bank details are saved: your gift is collected from ${account}${next ? ` from ${day(next)}` : ""}. We have e-mailed you the confirmation of your new Direct Debit Instruction.`,
  };
}

/**
 * New bank details on the offline provider (the embedded default and the tests): Stripe's test sort
 * code and accounts, checked as the first bank form checks them; a refusal changes nothing and says
 * why beside its field.
 */
export async function changeGiftBank(deps: ChangeDeps, token: string, details: BankDetails) {
  const now = deps.clock.now();
  const gift = await giftOfLink(deps.db, token, now);
  bankGift(gift);
  const offline = deps.payments as Partial<OfflineProvider>;
  if (!offline.changeSubscriptionBank || !gift.providerSubscriptionId) {
    throw new AppError("invalid", "Please use the button on your gift's page to change your bank details.");
  }
  let result: Awaited<ReturnType<OfflineProvider["changeSubscriptionBank"]>>;
  try {
    result = await offline.changeSubscriptionBank(gift.providerSubscriptionId, details);
  } catch (error) {
    throw providerUnavailable(error, `changing the bank details of monthly gift ${gift.id}`);
  }
  if ("errors" in result) bankRefused(result.errors);
  return recordBank(deps, gift, result.mandate);
}

/** Stripe: a Checkout Session in setup mode for new bank details, which the donor is sent to. */
export async function startGiftBankChange(deps: ChangeDeps, token: string, returnUrl: string) {
  const gift = await giftOfLink(deps.db, token, deps.clock.now());
  bankGift(gift);
  if (!gift.providerSubscriptionId) throw new AppError("conflict", giftChangeMessages.notStarted);
  try {
    return await deps.payments.startBankChange(gift.providerSubscriptionId, returnUrl);
  } catch (error) {
    throw providerUnavailable(error, `starting a bank details change of monthly gift ${gift.id}`);
  }
}

/**
 * Stripe: back from Checkout, the new mandate becomes the subscription's, once Stripe says it is
 * set up (never on the return address's word), and the change is recorded.
 */
export async function finishGiftBankChange(deps: ChangeDeps, token: string, sessionId: string) {
  const gift = await giftOfLink(deps.db, token, deps.clock.now());
  bankGift(gift);
  if (!gift.providerSubscriptionId || !/^cs_\w{1,200}$/.test(sessionId)) {
    throw new AppError("invalid", "Your new bank details were not confirmed, so nothing has changed.");
  }
  let result: Awaited<ReturnType<ChangeDeps["payments"]["finishBankChange"]>>;
  try {
    result = await deps.payments.finishBankChange(gift.providerSubscriptionId, sessionId);
  } catch (error) {
    throw providerUnavailable(error, `saving the new bank details of monthly gift ${gift.id}`);
  }
  if ("error" in result) throw new AppError("invalid", result.error);
  return recordBank(deps, gift, result.mandate);
}
