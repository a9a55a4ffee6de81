import crypto from "node:crypto";
import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, lt, or, sql, type SQL } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import type { Database, Queryable } from "~/infra/db/database.server";
import { composeLetter } from "~/infra/email/letter.server";
import { queueMail } from "~/infra/email/outbox.server";
import { providerUnavailable, type PaymentDeps } from "~/infra/payments/provider.server";
import { billingMonthOf, monthAfter } from "~/lib/billing-month";
import { AppError } from "~/lib/errors";
import { isUuid } from "~/lib/ids";
import { fromLondonInput, londonDayWords } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { pageOf, type Paged } from "~/lib/pagination";
import { auditLog, donations, giftAidDeclarations, regularGiftLinks, regularGifts } from "~db/schema";
import { giftLinkHash, giftLinkLifetimeMs, type GiftDeps } from "./regular-gifts.server";
import { maskedAccount, sortCodeWords } from "~/lib/bacs";
import {
  dayOfMonthWords,
  giftStatusLabel,
  mandateStatusLabels,
  paymentMethodLabels,
  type RegularGiftFilter,
  type RegularGiftStatus,
} from "./schema";
import { likeLiteral, searchText } from "~/lib/search-fold";

// Monthly giving as staff see it (/admin/regular-giving, issue 34): every gift with its state, the
// monthly total and how it has moved over twelve months, the gifts whose payment is failing, each
// gift's payments and history; a gift cancelled at a donor's request (by phone), and a fresh
// private link sent to the donor. The provider stays the truth for a gift's state: a cancellation
// is made at the provider first, and recorded only once the provider has made it.

type GiftRow = typeof regularGifts.$inferSelect;

export interface StaffRegularGift {
  id: string;
  donorName: string;
  email: string;
  amountPence: number;
  /** "the 5th" */
  day: string;
  status: RegularGiftStatus;
  statusLabel: string;
  startedAt: string;
  cancelledAt: string | null;
  /** Months paid, and what they came to. */
  payments: number;
  paidPence: number;
  lastPaidAt: string | null;
  giftAid: boolean;
  /** How it is paid (decision 092): "Card", or "Direct Debit from 10-88-00 ••••2345". */
  paidBy: string;
  paymentMethod: string;
  /** A Direct Debit's mandate: its reference and state, as the provider last said. */
  mandate: { reference: string; status: string; statusLabel: string } | null;
}

export interface GivingMonth {
  /** YYYY-MM, London. */
  month: string;
  /** "November 2026" */
  label: string;
  /** Monthly gifts' payments received in the month (not refunded). */
  receivedPence: number;
  payments: number;
  /** Gifts running at the month's end (or now, for this month): started, not cancelled. */
  running: number;
}

export interface RegularGivingSummary {
  active: number;
  failing: number;
  /** Gifts the donor paused (no payment until the pause ends): not counted as running. */
  paused: number;
  /** What the running gifts (active or failing) give each month. */
  monthlyPence: number;
  /** The last twelve London months, this one first. */
  months: GivingMonth[];
  /** Gifts whose last payment failed, while the provider tries the card again. */
  failingNow: StaffRegularGift[];
}

const running = inArray(regularGifts.status, ["active", "failing"]);

function statsOf(db: Queryable) {
  return db
    .select({
      regularGiftId: donations.regularGiftId,
      payments: count().as("payments"),
      paidPence: sql<number>`coalesce(sum(${donations.amountPence}), 0)`.mapWith(Number).as("paid_pence"),
      lastPaidAt: sql<string | Date | null>`max(${donations.paidAt})`.as("last_paid_at"),
    })
    .from(donations)
    .where(and(isNotNull(donations.regularGiftId), eq(donations.status, "paid")))
    .groupBy(donations.regularGiftId)
    .as("stats");
}

async function giftRows(db: Queryable, where: SQL | undefined, page?: { limit: number; offset: number }) {
  const stats = statsOf(db);
  const query = db
    .select({
      gift: regularGifts,
      payments: stats.payments,
      paidPence: stats.paidPence,
      lastPaidAt: stats.lastPaidAt,
      giftAid: sql<boolean>`exists (select 1 from ${donations} inner join ${giftAidDeclarations}
        on ${giftAidDeclarations.donationId} = ${donations.id}
        where ${donations.regularGiftId} = ${regularGifts.id} and ${giftAidDeclarations.cancelledAt} is null)`,
    })
    .from(regularGifts)
    .leftJoin(stats, eq(stats.regularGiftId, regularGifts.id))
    .where(where)
    .orderBy(desc(regularGifts.createdAt), asc(regularGifts.id));
  const rows = page ? await query.limit(page.limit).offset(page.offset) : await query;
  return rows.map(({ gift, ...row }): StaffRegularGift => ({
    id: gift.id,
    donorName: gift.donorName,
    email: gift.email,
    amountPence: gift.amountPence,
    day: dayOfMonthWords(gift.dayOfMonth),
    status: gift.status as RegularGiftStatus,
    statusLabel:
      giftStatusLabel(gift.status as RegularGiftStatus, gift.paymentMethod, gift.mandateReference !== null) ??
      gift.status,
    startedAt: gift.createdAt.toISOString(),
    cancelledAt: gift.cancelledAt?.toISOString() ?? null,
    payments: Number(row.payments ?? 0),
    paidPence: Number(row.paidPence ?? 0),
    lastPaidAt: row.lastPaidAt ? new Date(row.lastPaidAt).toISOString() : null,
    giftAid: Boolean(row.giftAid),
    paymentMethod: gift.paymentMethod,
    paidBy:
      gift.paymentMethod === "bacs_debit" && gift.bankSortCode && gift.bankLast4
        ? `Direct Debit from ${sortCodeWords(gift.bankSortCode)} ${maskedAccount(gift.bankLast4)}`
        : paymentMethodLabels[gift.paymentMethod as "card" | "bacs_debit"],
    mandate:
      gift.mandateReference && gift.mandateStatus
        ? {
            reference: gift.mandateReference,
            status: gift.mandateStatus,
            statusLabel: mandateStatusLabels[gift.mandateStatus as keyof typeof mandateStatusLabels],
          }
        : null,
  }));
}

function filtersWhere(filters: { q: string; status: RegularGiftFilter }): SQL | undefined {
  const q = searchText(filters.q);
  const like = `%${likeLiteral(q)}%`;
  return and(
    filters.status === "all" ? undefined : eq(regularGifts.status, filters.status),
    q ? or(ilike(regularGifts.donorName, like), ilike(regularGifts.email, like)) : undefined,
  );
}

/** The start of a London month (YYYY-MM), as a moment. */
function monthStart(month: string): Date {
  return new Date(fromLondonInput(`${month}-01T00:00`)!);
}

function monthLabel(month: string): string {
  return londonDayWords(new Date(monthStart(month).getTime() + 12 * 3_600_000)).replace(/^\w+ \d+ /, "");
}

/** The last twelve London months, this one first. */
export function lastTwelveMonths(now: Date): string[] {
  let month = billingMonthOf(now);
  const months: string[] = [];
  // Back eleven months from this one: the month before is found by going forward from a year back.
  const [year, number] = month.split("-").map(Number) as [number, number];
  month = `${year - 1}-${String(number).padStart(2, "0")}`;
  for (let i = 0; i < 12; i += 1) {
    month = monthAfter(month);
    months.unshift(month);
  }
  return months;
}

export async function regularGivingSummary(db: Queryable, now: Date): Promise<RegularGivingSummary> {
  const months = lastTwelveMonths(now);
  const from = monthStart(months.at(-1)!);
  const [[totals], received, gifts, failingNow] = await Promise.all([
    db
      .select({
        active: sql<number>`count(*) filter (where ${regularGifts.status} = 'active')`.mapWith(Number),
        failing: sql<number>`count(*) filter (where ${regularGifts.status} = 'failing')`.mapWith(Number),
        paused: sql<number>`count(*) filter (where ${regularGifts.status} = 'paused')`.mapWith(Number),
        monthlyPence: sql<number>`coalesce(sum(${regularGifts.amountPence}) filter (where ${running}), 0)`.mapWith(
          Number,
        ),
      })
      .from(regularGifts),
    db
      .select({ paidAt: donations.paidAt, amountPence: donations.amountPence })
      .from(donations)
      .where(and(isNotNull(donations.regularGiftId), eq(donations.status, "paid"), gte(donations.paidAt, from))),
    db
      .select({ createdAt: regularGifts.createdAt, cancelledAt: regularGifts.cancelledAt })
      .from(regularGifts)
      .where(and(lt(regularGifts.createdAt, now), sql`${regularGifts.status} <> 'incomplete'`)),
    giftRows(db, eq(regularGifts.status, "failing")),
  ]);
  return {
    active: totals?.active ?? 0,
    failing: totals?.failing ?? 0,
    paused: totals?.paused ?? 0,
    monthlyPence: totals?.monthlyPence ?? 0,
    months: months.map((month) => {
      const end = month === months[0] ? now : monthStart(monthAfter(month));
      const inMonth = received.filter((row) => row.paidAt && billingMonthOf(row.paidAt) === month);
      return {
        month,
        label: monthLabel(month),
        receivedPence: inMonth.reduce((total, row) => total + row.amountPence, 0),
        payments: inMonth.length,
        running: gifts.filter((gift) => gift.createdAt < end && (!gift.cancelledAt || gift.cancelledAt >= end)).length,
      };
    }),
    failingNow,
  };
}

/** /admin/regular-giving: the summary and a page of gifts, newest first, found by name or e-mail and filtered by state. */
export async function regularGivingPage(
  db: Queryable,
  filters: { q: string; status: RegularGiftFilter },
  requested: number,
  now: Date,
): Promise<{ summary: RegularGivingSummary; gifts: Paged<StaffRegularGift> }> {
  const where = filtersWhere(filters);
  const [summary, [counted]] = await Promise.all([
    regularGivingSummary(db, now),
    db.select({ total: count() }).from(regularGifts).where(where),
  ]);
  const page = pageOf<StaffRegularGift>([], counted?.total ?? 0, requested);
  return { summary, gifts: { ...page, rows: await giftRows(db, where, page) } };
}

export interface RegularGiftDetail {
  gift: StaffRegularGift & { provider: string; providerSubscriptionId: string | null };
  payments: {
    donationId: string;
    month: string;
    label: string;
    amountPence: number;
    status: string;
    paidAt: string | null;
  }[];
  history: { at: string; summary: string; by: string }[];
  /** The donor's private link: when the last one was made, and until when it works. */
  link: { sentAt: string; expiresAt: string } | null;
}

export async function regularGiftDetail(db: Queryable, giftId: string): Promise<RegularGiftDetail | undefined> {
  if (!isUuid(giftId)) return undefined;
  const [gift] = await giftRows(db, eq(regularGifts.id, giftId));
  if (!gift) return undefined;
  const [[row], payments, history, [link]] = await Promise.all([
    db
      .select({ provider: regularGifts.provider, providerSubscriptionId: regularGifts.providerSubscriptionId })
      .from(regularGifts)
      .where(eq(regularGifts.id, giftId)),
    db.select().from(donations).where(eq(donations.regularGiftId, giftId)).orderBy(desc(donations.billingMonth)),
    db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subject, `regular-gift:${giftId}`))
      .orderBy(desc(auditLog.at), desc(auditLog.id)),
    db
      .select()
      .from(regularGiftLinks)
      .where(eq(regularGiftLinks.regularGiftId, giftId))
      .orderBy(desc(regularGiftLinks.createdAt))
      .limit(1),
  ]);
  return {
    gift: { ...gift, provider: row!.provider, providerSubscriptionId: row!.providerSubscriptionId },
    payments: payments.map((d) => ({
      donationId: d.id,
      month: d.billingMonth ?? "",
      label: d.billingMonth ? monthLabel(d.billingMonth) : "",
      amountPence: d.amountPence,
      status: d.status,
      paidAt: d.paidAt?.toISOString() ?? null,
    })),
    history: history.map((entry) => ({ at: entry.at.toISOString(), summary: entry.summary, by: entry.staffEmail })),
    link: link ? { sentAt: link.createdAt.toISOString(), expiresAt: link.expiresAt.toISOString() } : null,
  };
}

type Staff = { id: string; email: string };

/**
 * Cancels a gift on the donor's request (by phone or letter): at the provider first, so no further
 * payment is taken, then recorded with the audit log's entry and an e-mail telling the donor. A gift
 * already cancelled is left as it is. Payments already made stay given.
 */
export async function cancelRegularGiftForDonor(
  deps: PaymentDeps & { db: Database },
  staff: Staff,
  giftId: string,
): Promise<"cancelled" | "already"> {
  const gift = isUuid(giftId)
    ? (await deps.db.select().from(regularGifts).where(eq(regularGifts.id, giftId)))[0]
    : undefined;
  if (!gift) throw new AppError("not-found", "There is no such monthly gift.");
  if (gift.status === "cancelled") return "already";
  if (gift.providerSubscriptionId) {
    try {
      await deps.payments.cancelSubscription(gift.providerSubscriptionId);
    } catch (error) {
      throw providerUnavailable(error, `cancelling monthly gift ${gift.id}`);
    }
  }
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [cancelled] = await tx
      .update(regularGifts)
      .set({ status: "cancelled", cancelledAt: now, pausedUntil: null, updatedAt: now })
      .where(and(eq(regularGifts.id, gift.id), sql`${regularGifts.status} <> 'cancelled'`))
      .returning();
    if (!cancelled) return "already" as const;
    await recordAudit(tx, {
      staff,
      action: "regular-gift.cancelled",
      subject: `regular-gift:${gift.id}`,
      summary: `Cancelled the monthly gift of ${formatPounds(gift.amountPence)} at the donor's request`,
      at: now,
    });
    await queueMail(tx, {
      kind: "regular-gift-cancelled",
      about: gift.id,
      message: await cancelledLetter(gift, deps.charity),
      now,
    });
    return "cancelled" as const;
  });
}

function cancelledLetter(gift: GiftRow, charity: PaymentDeps["charity"]) {
  return composeLetter({
    to: { name: gift.donorName, address: gift.email },
    subject: `Your monthly gift to ${charity.name} is cancelled`,
    title: "Your monthly gift is cancelled",
    greeting: `Dear ${gift.donorName},`,
    blocks: [
      {
        paragraph: `As you asked us, your monthly gift of ${formatPounds(gift.amountPence)}, taken on ${dayOfMonthWords(gift.dayOfMonth)} of each month, is cancelled. No further payment will be taken.`,
      },
      {
        paragraph: `Thank you for every month you gave: it has made a real difference in Kilele. If this is a mistake, reply to this e-mail and we will put it right.`,
      },
    ],
    charity,
  });
}

/**
 * Sends the donor a fresh private link to their gift (`/giving/<token>`): a new token, of which only
 * the hash is kept, sealed in the e-mail until it is sent (decision 054). Earlier links keep working
 * until they expire. `staff`: who asked, for the audit log; none when the donor asked for it.
 */
export async function sendRegularGiftLink(
  deps: Pick<GiftDeps, "db" | "clock" | "charity" | "outbox">,
  staff: Staff | null,
  giftId: string,
): Promise<void> {
  const gift = isUuid(giftId)
    ? (await deps.db.select().from(regularGifts).where(eq(regularGifts.id, giftId)))[0]
    : undefined;
  if (!gift) throw new AppError("not-found", "There is no such monthly gift.");
  const now = deps.clock.now();
  const token = crypto.randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + giftLinkLifetimeMs);
  const link = `${deps.charity.website.replace(/\/$/, "")}/giving/{{token}}`;
  const message = await composeLetter({
    to: { name: gift.donorName, address: gift.email },
    subject: `Your link to your monthly gift to ${deps.charity.name}`,
    title: "Your monthly gift",
    greeting: `Dear ${gift.donorName},`,
    blocks: [
      {
        paragraph: [
          "Here is your own private link to your monthly gift of ",
          { strong: formatPounds(gift.amountPence) },
          ": ",
          { link: "your monthly gift", href: link },
          `. It works until ${londonDayWords(expiresAt)}. Please keep it to yourself: anyone with it can see your gift.`,
        ],
      },
    ],
    charity: deps.charity,
  });
  await deps.db.transaction(async (tx) => {
    await tx.insert(regularGiftLinks).values({
      tokenHash: giftLinkHash(token),
      regularGiftId: gift.id,
      createdAt: now,
      expiresAt,
    });
    await queueMail(tx, {
      kind: "regular-gift-link",
      about: giftLinkHash(token),
      message,
      sealed: deps.outbox.seal({ token }),
      now,
    });
    if (staff) {
      await recordAudit(tx, {
        staff,
        action: "regular-gift.link-sent",
        subject: `regular-gift:${gift.id}`,
        summary: "Sent the donor a fresh link to their monthly gift",
        at: now,
      });
    }
  });
}

/** How many gifts have a failed payment the provider is trying again (for the staff home's to-do list). */
export async function failingRegularGifts(db: Queryable): Promise<number> {
  return db.$count(regularGifts, eq(regularGifts.status, "failing"));
}

/** Every gift, for the CSV download (newest first). */
export function allRegularGifts(db: Queryable): Promise<StaffRegularGift[]> {
  return giftRows(db, undefined);
}
