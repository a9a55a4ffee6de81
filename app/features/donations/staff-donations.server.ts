import { monthInWords } from "~/lib/billing-month";
import { and, asc, desc, eq, isNull } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import type { Database, Queryable } from "~/infra/db/database.server";
import { AppError } from "~/lib/errors";
import { isUuid } from "~/lib/ids";
import { londonDate, londonDay } from "~/lib/london-time";
import { slicePage, type Paged } from "~/lib/pagination";
import { providerReference, type ProviderReference } from "~/lib/provider-reference";
import { personMatches, personQuery, personRank } from "~/lib/search-fold";
import { donations, events, giftAidClaims, giftAidDeclarations, refunds, regularGifts } from "~db/schema";
import { giftAidPence } from "./amount";
import { giftAidDeclarationFor, readyToClaim, type GiftAidDeclaration, type GiftAidDonation } from "./gift-aid";
import { donationStatusLabels, type DonationFilters, type DonationStatus, type GiftAidScope } from "./schema";
import { monthlyTotals, type MonthTotal } from "./totals";

// The donations as staff see them: every donation with its status and its Gift Aid, filtered,
// found by the donor's name or e-mail (decision 077), and totalled. A small charity has thousands
// of donations, not millions, so the Gift Aid rule (which declaration covers which donation) and
// the search (the same folding as the database's, `search-fold.ts`) run here over all of them.

type DonationRow = typeof donations.$inferSelect;
type DeclarationRow = typeof giftAidDeclarations.$inferSelect;

export interface StaffDeclaration extends GiftAidDeclaration {
  wording: string;
  cancelledBy: string | null;
}

export interface DonationsAndDeclarations {
  /** Each with its monthly gift's way of paying, for a month's payment (decision 092). */
  donations: (DonationRow & { claimedOn: string | null; giftPaymentMethod?: string | null })[];
  /** Each donation's own declaration, by donation id. */
  own: Map<string, StaffDeclaration>;
  declarations: StaffDeclaration[];
}

function declarationOf(row: DeclarationRow, donation: DonationRow): StaffDeclaration {
  return {
    id: row.id,
    donationId: row.donationId,
    email: donation.email,
    regularGiftId: donation.regularGiftId,
    madeWithPaidDonation: donation.paidAt !== null,
    firstName: row.firstName,
    surname: row.surname,
    houseNameOrNumber: row.houseNameOrNumber,
    postcode: row.postcode,
    scope: row.scope as GiftAidScope,
    wording: row.wording,
    declaredAt: row.declaredAt,
    cancelledAt: row.cancelledAt,
    cancelledBy: row.cancelledBy,
  };
}

/** Every donation (newest first, by when it was paid or else made) with every declaration. */
export async function loadDonationsAndDeclarations(db: Queryable): Promise<DonationsAndDeclarations> {
  const rows = await db
    .select()
    .from(donations)
    .leftJoin(giftAidDeclarations, eq(giftAidDeclarations.donationId, donations.id))
    .leftJoin(giftAidClaims, eq(giftAidClaims.id, donations.giftAidClaimId))
    .leftJoin(regularGifts, eq(regularGifts.id, donations.regularGiftId))
    .orderBy(desc(donations.createdAt), desc(donations.id));
  const own = new Map<string, StaffDeclaration>();
  for (const { donations: d, gift_aid_declarations: g } of rows) if (g) own.set(d.id, declarationOf(g, d));
  const list = rows.map(({ donations: d, gift_aid_claims: c, regular_gifts: r }) => ({
    ...d,
    claimedOn: c?.claimedOn ?? null,
    giftPaymentMethod: r?.paymentMethod ?? null,
  }));
  list.sort((a, b) => (b.paidAt ?? b.createdAt).getTime() - (a.paidAt ?? a.createdAt).getTime());
  return { donations: list, own, declarations: [...own.values()] };
}

export interface StaffDonationView {
  id: string;
  /** When it was paid, or else when it was made (ISO). */
  date: string;
  createdAt: string;
  paidAt: string | null;
  refundedAt: string | null;
  amountPence: number;
  name: string;
  email: string;
  status: DonationStatus;
  statusLabel: string;
  provider: string;
  providerPaymentId: string | null;
  /** A monthly gift's payment (decision 089): the gift, and the month it pays ("December 2026"). */
  monthly: { regularGiftId: string; month: string; directDebit: boolean } | null;
  giftAid: {
    /** What staff read in the Gift Aid column. */
    label: string;
    /** Whether a declaration covers it (its own or another by the same donor). */
    covered: boolean;
    /** The Gift Aid it can add (25%) when covered. */
    claimablePence: number;
    readyToClaim: boolean;
    claim: { id: string; claimedOn: string } | null;
    /** Claimed, then refunded: HMRC must be told so the claim is adjusted. */
    claimedThenRefunded: boolean;
  };
}

function asGiftAidDonation(row: DonationRow): GiftAidDonation {
  return {
    id: row.id,
    email: row.email,
    regularGiftId: row.regularGiftId,
    status: row.status,
    amountPence: row.amountPence,
    paidAt: row.paidAt,
    refundedAt: row.refundedAt,
    giftAidClaimId: row.giftAidClaimId,
  };
}

function giftAidLabel(
  row: DonationRow & { claimedOn: string | null },
  covering: StaffDeclaration | undefined,
  own: StaffDeclaration | undefined,
): string {
  const refunded = row.status === "refunded" || row.status === "refund_pending" || row.refundedAt !== null;
  if (row.giftAidClaimId) {
    const claimed = `Claimed in the claim of ${londonDate(`${row.claimedOn}T12:00:00Z`)}`;
    return refunded ? `${claimed}; since refunded: tell HMRC` : claimed;
  }
  if (covering && refunded) return "Declared; not claimable, refunded";
  if (covering) {
    const how =
      covering.donationId === row.id
        ? "Declared"
        : covering.regularGiftId && covering.regularGiftId === row.regularGiftId
          ? "Declared with this monthly gift"
          : "Declared with another donation";
    return covering.cancelledAt ? `${how} (declaration since cancelled)` : how;
  }
  if (own) return own.cancelledAt ? "Declaration cancelled" : "Declared";
  return "None";
}

function viewOf(
  row: DonationRow & { claimedOn: string | null; giftPaymentMethod?: string | null },
  all: DonationsAndDeclarations,
): StaffDonationView {
  const donation = asGiftAidDonation(row);
  const covering = giftAidDeclarationFor(donation, all.declarations);
  const refunded = row.status === "refunded" || row.status === "refund_pending" || row.refundedAt !== null;
  return {
    id: row.id,
    date: (row.paidAt ?? row.createdAt).toISOString(),
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    refundedAt: row.refundedAt?.toISOString() ?? null,
    amountPence: row.amountPence,
    name: row.donorName,
    email: row.email,
    status: row.status as DonationStatus,
    statusLabel: donationStatusLabels[row.status as DonationStatus] ?? row.status,
    provider: row.provider,
    providerPaymentId: row.providerPaymentId,
    monthly:
      row.regularGiftId && row.billingMonth
        ? {
            regularGiftId: row.regularGiftId,
            month: monthInWords(row.billingMonth),
            directDebit: row.giftPaymentMethod === "bacs_debit",
          }
        : null,
    giftAid: {
      label: giftAidLabel(row, covering, all.own.get(row.id)),
      covered: covering !== undefined,
      claimablePence: covering ? giftAidPence(row.amountPence) : 0,
      readyToClaim: readyToClaim(donation, all.declarations) !== undefined,
      claim: row.giftAidClaimId && row.claimedOn ? { id: row.giftAidClaimId, claimedOn: row.claimedOn } : null,
      claimedThenRefunded: row.giftAidClaimId !== null && refunded,
    },
  };
}

/** Every donation as staff see it, newest first. */
export async function staffDonationViews(db: Queryable): Promise<StaffDonationView[]> {
  const all = await loadDonationsAndDeclarations(db);
  return all.donations.map((row) => viewOf(row, all));
}

/** Whether a donation passes the page's filters (dates are London days of its date). */
export function matchesFilters(view: StaffDonationView, filters: DonationFilters): boolean {
  const query = filters.q ? personQuery(filters.q) : undefined;
  if (query && !personMatches(query, view)) return false;
  const day = londonDay(view.date);
  if (filters.from && day < filters.from) return false;
  if (filters.to && day > filters.to) return false;
  if (filters.status !== "all" && view.status !== filters.status) return false;
  const withGiftAid = view.giftAid.covered || view.giftAid.label !== "None";
  if (filters.giftAid === "with" && !withGiftAid) return false;
  if (filters.giftAid === "without" && withGiftAid) return false;
  return true;
}

export interface DonationsPage {
  donations: Paged<StaffDonationView>;
  months: MonthTotal[];
}

/** /admin/donations: the filtered donations, 50 a page, and their totals per London month. */
export async function donationsPage(
  { db }: { db: Queryable },
  filters: DonationFilters,
  page: number,
): Promise<DonationsPage> {
  const shown = (await staffDonationViews(db)).filter((view) => matchesFilters(view, filters));
  // A search lists the best matches first (a name that starts with what was typed), newest first within each.
  const query = filters.q ? personQuery(filters.q) : undefined;
  if (query) shown.sort((a, b) => personRank(query, a.name) - personRank(query, b.name));
  return {
    donations: slicePage(shown, page),
    months: monthlyTotals(
      shown.map((view) => ({
        status: view.status,
        paidAt: view.refundedAt ? null : view.paidAt,
        amountPence: view.amountPence,
        giftAid: view.giftAid.covered,
      })),
    ),
  };
}

export interface DonationRefundView {
  id: string;
  amountPence: number;
  reason: string;
  status: "pending" | "succeeded" | "failed";
  attempts: number;
  staffEmail: string;
  createdAt: string;
  completedAt: string | null;
  /** The provider's reference for the refund, named, once it is made. */
  reference: ProviderReference | null;
}

export interface DonationDetail {
  donation: StaffDonationView;
  /** The declaration made with this donation. */
  declaration:
    (Omit<StaffDeclaration, "declaredAt" | "cancelledAt"> & { declaredAt: string; cancelledAt: string | null }) | null;
  /** The declaration it is claimed (or claimable) under, when that is another donation's. */
  coveredBy: { donationId: string; declaredAt: string; scope: GiftAidScope } | null;
  refunds: DonationRefundView[];
  /** The card payment's reference at its provider, named. */
  paymentReference: ProviderReference | null;
  /** The event whose thank-you it followed, within 30 days (decision 095). */
  afterThankYou: { eventId: string; name: string } | null;
}

/** One donation for its staff page: details, its declaration, refunds. Undefined if there is none. */
export async function donationDetail(
  { db }: { db: Queryable },
  donationId: string,
): Promise<DonationDetail | undefined> {
  if (!isUuid(donationId)) return undefined;
  const all = await loadDonationsAndDeclarations(db);
  const row = all.donations.find((d) => d.id === donationId);
  if (!row) return undefined;
  const own = all.own.get(donationId);
  const covering = giftAidDeclarationFor(asGiftAidDonation(row), all.declarations);
  const refundRows = await db
    .select()
    .from(refunds)
    .where(eq(refunds.donationId, donationId))
    .orderBy(asc(refunds.createdAt));
  const [thanked] = await db
    .select({ eventId: events.id, name: events.name })
    .from(donations)
    .innerJoin(events, eq(events.id, donations.eventId))
    .where(eq(donations.id, donationId));
  return {
    afterThankYou: thanked ?? null,
    donation: viewOf(row, all),
    declaration: own
      ? { ...own, declaredAt: own.declaredAt.toISOString(), cancelledAt: own.cancelledAt?.toISOString() ?? null }
      : null,
    coveredBy:
      covering && covering.donationId !== donationId
        ? { donationId: covering.donationId, declaredAt: covering.declaredAt.toISOString(), scope: covering.scope }
        : null,
    paymentReference: row.providerPaymentId ? providerReference(row.provider, row.providerPaymentId) : null,
    refunds: refundRows.map((r) => ({
      id: r.id,
      amountPence: r.amountPence,
      reason: r.reason,
      status: r.status as DonationRefundView["status"],
      attempts: r.attempts,
      staffEmail: r.staffEmail,
      createdAt: r.createdAt.toISOString(),
      completedAt: r.completedAt?.toISOString() ?? null,
      reference: r.providerRefundId ? providerReference(row.provider, r.providerRefundId) : null,
    })),
  };
}

/**
 * The donor asked to cancel the Gift Aid declaration made with this donation: staff record it (when
 * and who), audited in the same transaction. Donations paid from then on are not claimed under it.
 * False when there is no declaration still standing.
 */
export async function cancelDeclaration(
  { db }: { db: Database },
  staff: { id: string; email: string },
  donationId: string,
  now: Date,
): Promise<boolean> {
  if (!isUuid(donationId)) throw new AppError("not-found", "There is no such donation.");
  return db.transaction(async (tx) => {
    const [cancelled] = await tx
      .update(giftAidDeclarations)
      .set({ cancelledAt: now, cancelledBy: staff.email })
      .where(and(eq(giftAidDeclarations.donationId, donationId), isNull(giftAidDeclarations.cancelledAt)))
      .returning({ id: giftAidDeclarations.id });
    if (!cancelled) return false;
    await recordAudit(tx, {
      staff,
      action: "gift-aid.declaration-cancelled",
      subject: `donation:${donationId}`,
      summary: "Recorded that the donor cancelled their Gift Aid declaration",
      at: now,
    });
    return true;
  });
}
