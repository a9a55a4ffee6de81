import { londonDate } from "~/lib/london-time";
import { amountParam } from "./amount";
import { normalisePostcode, type GiftAidScope } from "./schema";

// Which donations a Gift Aid declaration covers, and how a claimed donation is written in HMRC's
// Charities Online claim schedule. Pure rules: the pages, the CSV and the claim all use these.

/** A donation as the Gift Aid rules see it. */
export interface GiftAidDonation {
  id: string;
  email: string;
  status: string;
  amountPence: number;
  paidAt: Date | null;
  refundedAt: Date | null;
  giftAidClaimId: string | null;
  /** The monthly gift it is a month of (decision 089); absent or null for a one-off gift. */
  regularGiftId?: string | null;
}

/** A declaration, with the e-mail of the donation it was made with and whether that was paid. */
export interface GiftAidDeclaration {
  id: string;
  donationId: string;
  /** The e-mail of the donation it was made with: the donor. */
  email: string;
  /**
   * The monthly gift it was made with, if any: its later months are the same donor's whatever the
   * e-mail now says (an erasure gives each donation an address of its own, decision 089).
   */
  regularGiftId?: string | null;
  /** Whether the donation it was made with was paid: an abandoned attempt's declaration counts for nothing. */
  madeWithPaidDonation: boolean;
  firstName: string;
  surname: string;
  houseNameOrNumber: string;
  postcode: string;
  scope: GiftAidScope;
  declaredAt: Date;
  cancelledAt: Date | null;
}

/** Four calendar years before `moment`: HMRC's "the past 4 years". */
function fourYearsBefore(moment: Date): Date {
  const earlier = new Date(moment.getTime());
  earlier.setUTCFullYear(earlier.getUTCFullYear() - 4);
  return earlier;
}

/**
 * Whether `declaration` covers `donation` (paid at `paidAt`): the same donor (e-mail, any case),
 * not cancelled before the donation was paid, and either made with it, or reaching back four
 * years to it, or reaching forward to it.
 */
export function declarationCovers(declaration: GiftAidDeclaration, donation: GiftAidDonation): boolean {
  const paidAt = donation.paidAt;
  if (!paidAt || !declaration.madeWithPaidDonation) return false;
  const sameGift = Boolean(declaration.regularGiftId) && declaration.regularGiftId === donation.regularGiftId;
  if (!sameGift && declaration.email.trim().toLowerCase() !== donation.email.trim().toLowerCase()) return false;
  if (declaration.cancelledAt && declaration.cancelledAt.getTime() <= paidAt.getTime()) return false;
  if (declaration.donationId === donation.id) return true;
  const declared = declaration.declaredAt.getTime();
  const paid = paidAt.getTime();
  const reachesBack =
    declaration.scope === "this-and-past-four-years" || declaration.scope === "past-four-years-and-future";
  if (reachesBack && paid <= declared && paid >= fourYearsBefore(declaration.declaredAt).getTime()) return true;
  const reachesForward = declaration.scope === "past-four-years-and-future" || declaration.scope === "this-and-future";
  return reachesForward && paid > declared;
}

/**
 * The declaration whose name and address a donation is claimed under: the one made with it, else
 * the earliest that covers it (a later declaration never changes a claim already made). Undefined
 * when none covers it; refunds and claims are not looked at here (see readyToClaim).
 */
export function giftAidDeclarationFor<D extends GiftAidDeclaration>(
  donation: GiftAidDonation,
  declarations: readonly D[],
): D | undefined {
  const covering = declarations.filter((declaration) => declarationCovers(declaration, donation));
  return (
    covering.find((declaration) => declaration.donationId === donation.id) ??
    covering.sort((a, b) => a.declaredAt.getTime() - b.declaredAt.getTime())[0]
  );
}

/** Paid, never refunded, not yet in a claim: what may still go into a claim if a declaration covers it. */
export function isClaimable(donation: GiftAidDonation): boolean {
  return donation.status === "paid" && !donation.refundedAt && !donation.giftAidClaimId && donation.paidAt !== null;
}

/** The declaration a donation would be claimed under now, or undefined if it is not ready to claim. */
export function readyToClaim<D extends GiftAidDeclaration>(
  donation: GiftAidDonation,
  declarations: readonly D[],
): D | undefined {
  return isClaimable(donation) ? giftAidDeclarationFor(donation, declarations) : undefined;
}

/** HMRC's claim schedule columns, in its order, with its headings. */
export const claimScheduleHeadings = [
  "Title",
  "First name",
  "Last name",
  "House name or number",
  "Postcode",
  "Aggregated donations",
  "Sponsored event",
  "Donation date",
  "Amount",
] as const;

/** HMRC's limit on the first and last name boxes. */
const nameLimit = 35;

/** DD/MM/YY, the London day, as the schedule asks. */
export function scheduleDate(moment: Date): string {
  const [day, month, year] = londonDate(moment).split("/");
  return `${day}/${month}/${year!.slice(-2)}`;
}

/**
 * One donation as a row of the claim schedule: the title is not collected, so blank; names cut to
 * 35 characters, hyphens in the last name written as spaces; the postcode in capitals with its
 * space; no aggregation and no sponsored event, so blank; the date DD/MM/YY; the amount like 25.00.
 */
export function claimScheduleRow(
  donation: Pick<GiftAidDonation, "amountPence" | "paidAt">,
  declaration: Pick<GiftAidDeclaration, "firstName" | "surname" | "houseNameOrNumber" | "postcode">,
): string[] {
  const lastName = declaration.surname.replace(/-/g, " ").replace(/\s+/g, " ").trim();
  return [
    "",
    declaration.firstName.trim().slice(0, nameLimit).trim(),
    lastName.slice(0, nameLimit).trim(),
    declaration.houseNameOrNumber.trim(),
    normalisePostcode(declaration.postcode) ?? declaration.postcode.trim().toUpperCase(),
    "",
    "",
    scheduleDate(donation.paidAt!),
    amountParam(donation.amountPence),
  ];
}
