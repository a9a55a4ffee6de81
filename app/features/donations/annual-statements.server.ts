import { and, eq, gte, isNotNull, lt, sql } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import type { Database, Queryable } from "~/infra/db/database.server";
import { composeLetter, type Line } from "~/infra/email/letter.server";
import { mailInsert } from "~/infra/email/outbox.server";
import type { Charity } from "~/infra/payments/provider.server";
import { fromLondonInput, londonDate, londonDay } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { plural } from "~/lib/plural";
import { auditLog, donations, regularGifts } from "~db/schema";
import { giftAidPence } from "./amount";
import { giftAidDeclarationFor } from "./gift-aid";
import { loadDonationsAndDeclarations } from "./staff-donations.server";

// Each monthly donor's statement of the last tax year (issue 34): every gift they made between 6
// April and 5 April, with the Gift Aid we claimed or will claim on each, sent through the outbox
// when staff press one button on /admin/regular-giving. One statement per donor per tax year,
// however often the button is pressed (the outbox's key), so a double click sends nothing twice.

export interface TaxYear {
  /** "2025-26" */
  key: string;
  /** "2025–26" */
  label: string;
  /** 6 April, 00:00 in London, and the next 6 April. */
  start: Date;
  end: Date;
}

/** The last tax year that has ended by `now` (UK: 6 April to 5 April). */
export function lastTaxYear(now: Date): TaxYear {
  const today = londonDay(now);
  const year = Number(today.slice(0, 4));
  const endYear = today.slice(5) >= "04-06" ? year : year - 1;
  const start = new Date(fromLondonInput(`${endYear - 1}-04-06T00:00`)!);
  const end = new Date(fromLondonInput(`${endYear}-04-06T00:00`)!);
  const short = String(endYear).slice(2);
  return { key: `${endYear - 1}-${short}`, label: `${endYear - 1}–${short}`, start, end };
}

interface StatementGift {
  paidAt: Date;
  amountPence: number;
  monthly: boolean;
  giftAidPence: number;
}

/** The donors with a monthly gift paid in the tax year, each with every gift of theirs in it. */
async function statementsOf(db: Queryable, year: TaxYear) {
  const monthlyDonors = await db
    .selectDistinct({ email: sql<string>`lower(${regularGifts.email})` })
    .from(donations)
    .innerJoin(regularGifts, eq(regularGifts.id, donations.regularGiftId))
    .where(
      and(
        eq(donations.status, "paid"),
        isNotNull(donations.paidAt),
        gte(donations.paidAt, year.start),
        lt(donations.paidAt, year.end),
      ),
    );
  const wanted = new Set(monthlyDonors.map((row) => row.email));
  const { donations: all, declarations } = await loadDonationsAndDeclarations(db);
  const byDonor = new Map<string, { name: string; email: string; gifts: StatementGift[] }>();
  for (const donation of all) {
    const email = donation.email.trim().toLowerCase();
    if (!wanted.has(email) || donation.status !== "paid" || donation.refundedAt || !donation.paidAt) continue;
    if (donation.paidAt < year.start || donation.paidAt >= year.end) continue;
    const covered = giftAidDeclarationFor(donation, declarations);
    const donor = byDonor.get(email) ?? { name: donation.donorName, email: donation.email, gifts: [] };
    donor.gifts.push({
      paidAt: donation.paidAt,
      amountPence: donation.amountPence,
      monthly: donation.regularGiftId !== null,
      giftAidPence: covered ? giftAidPence(donation.amountPence) : 0,
    });
    byDonor.set(email, donor);
  }
  for (const donor of byDonor.values()) donor.gifts.sort((a, b) => a.paidAt.getTime() - b.paidAt.getTime());
  return [...byDonor.values()];
}

function statementLetter(
  donor: { name: string; email: string; gifts: StatementGift[] },
  year: TaxYear,
  charity: Charity,
) {
  const total = donor.gifts.reduce((sum, gift) => sum + gift.amountPence, 0);
  const giftAid = donor.gifts.reduce((sum, gift) => sum + gift.giftAidPence, 0);
  const rows: [string, Line][] = donor.gifts.map((gift) => [
    londonDate(gift.paidAt),
    `${formatPounds(gift.amountPence)}${gift.monthly ? " (monthly gift)" : ""}${gift.giftAidPence > 0 ? `, Gift Aid ${formatPounds(gift.giftAidPence)}` : ""}`,
  ]);
  return composeLetter({
    to: { name: donor.name, address: donor.email },
    subject: `Your gifts to ${charity.name} in the tax year ${year.label}`,
    title: `Your gifts in the tax year ${year.label}`,
    greeting: `Dear ${donor.name},`,
    blocks: [
      {
        paragraph: `Thank you for your gifts to ${charity.name} between ${londonDate(year.start)} and ${londonDate(new Date(year.end.getTime() - 12 * 3_600_000))}. Here they are, for your records and your tax return.`,
      },
      { rows },
      {
        rows: [
          ["Your gifts", [{ strong: formatPounds(total) }]],
          ["Gift Aid we claimed or will claim on them", formatPounds(giftAid)],
        ],
      },
      ...(giftAid > 0
        ? [
            {
              paragraph:
                "If you pay less Income Tax and/or Capital Gains Tax than the amount of Gift Aid claimed on all your donations in that tax year it is your responsibility to pay any difference.",
            },
          ]
        : []),
      {
        paragraph: `If anything here looks wrong, reply to this e-mail and we will put it right. Registered charity number ${charity.registrationNumber}.`,
      },
    ],
    charity,
  });
}

/** The last tax year, how many monthly donors it had, and when staff last sent its statements. */
export async function statementsStanding(db: Queryable, now: Date) {
  const year = lastTaxYear(now);
  const [donors, [sent]] = await Promise.all([
    statementsOf(db, year),
    db
      .select({ at: auditLog.at, by: auditLog.staffEmail })
      .from(auditLog)
      .where(and(eq(auditLog.action, "regular-gifts.statements-sent"), eq(auditLog.subject, `tax-year:${year.key}`)))
      .orderBy(sql`${auditLog.at} desc`)
      .limit(1),
  ]);
  return {
    year: { key: year.key, label: year.label, start: year.start.toISOString(), end: year.end.toISOString() },
    donors: donors.length,
    lastSent: sent ? { at: sent.at.toISOString(), by: sent.by } : null,
  };
}

/**
 * Queues the last tax year's statement for each monthly donor: one e-mail per donor and tax year,
 * ever (the outbox key), in one transaction with its audit entry. Answers how many were queued now
 * and how many had been already.
 */
export async function sendAnnualStatements(
  deps: { db: Database; charity: Charity },
  staff: { id: string; email: string },
  now: Date,
): Promise<{ queued: number; already: number }> {
  const year = lastTaxYear(now);
  const donors = await statementsOf(deps.db, year);
  const letters = await Promise.all(donors.map((donor) => statementLetter(donor, year, deps.charity)));
  return deps.db.transaction(async (tx) => {
    let queued = 0;
    for (const [i, donor] of donors.entries()) {
      const inserted = await mailInsert(tx, {
        kind: "regular-gift-statement",
        about: `${year.key}:${donor.email.trim().toLowerCase()}`,
        message: letters[i]!,
        now,
      }).returning({ id: sql`1` });
      queued += inserted.length;
    }
    await recordAudit(tx, {
      staff,
      action: "regular-gifts.statements-sent",
      subject: `tax-year:${year.key}`,
      summary: `Sent the ${year.label} statements: ${plural(queued, "donor")} now${donors.length > queued ? `, ${plural(donors.length - queued, "donor")} had theirs already` : ""}`,
      at: now,
    });
    return { queued, already: donors.length - queued };
  });
}
