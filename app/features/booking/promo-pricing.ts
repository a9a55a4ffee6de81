import { formatPounds } from "~/lib/money";

// What a promo code takes off (decision 084), the one rule for the checkout, the booking page's
// overview and the staff pages. A code's discount is per ticket, on the types it covers: a
// percentage of the price (rounded to the penny), a fixed amount off each ticket (never below £0),
// or the whole price (a complimentary ticket). The booking fee follows what the tickets come to
// after the discount, as for any booking: none when they come to £0.

export type PromoKind = "percent" | "fixed" | "free";

/** A code's terms, as the checkout and the booking page apply them. */
export interface PromoTerms {
  kind: PromoKind;
  percentOff: number | null;
  amountOffPence: number | null;
  /** The types it covers; empty: every type of the event. */
  ticketTypeIds: string[];
}

/** Whether a code's discount applies to tickets of this type. */
export function covers(terms: Pick<PromoTerms, "ticketTypeIds">, typeId: string): boolean {
  return terms.ticketTypeIds.length === 0 || terms.ticketTypeIds.includes(typeId);
}

/** The price of one ticket of a type the code covers, after its discount. */
export function discountedPrice(terms: PromoTerms, pricePence: number): number {
  if (terms.kind === "free") return 0;
  if (terms.kind === "percent") return pricePence - Math.round((pricePence * (terms.percentOff ?? 0)) / 100);
  return Math.max(0, pricePence - (terms.amountOffPence ?? 0));
}

/**
 * Tickets with the code applied: each item's `pricePence` what is paid for one of its tickets,
 * `fullPricePence` what it would have been; `discountPence` what the code takes off in all, and
 * `applies` whether it covers any of them.
 */
export function applyPromo<T extends { typeId: string; pricePence: number; quantity: number }>(
  terms: PromoTerms | null | undefined,
  items: T[],
): { items: (T & { fullPricePence: number })[]; discountPence: number; applies: boolean } {
  let discountPence = 0;
  let applies = false;
  const priced = items.map((item) => {
    if (!terms || !covers(terms, item.typeId)) return { ...item, fullPricePence: item.pricePence };
    applies = true;
    const pricePence = discountedPrice(terms, item.pricePence);
    discountPence += (item.pricePence - pricePence) * item.quantity;
    return { ...item, pricePence, fullPricePence: item.pricePence };
  });
  return { items: priced, discountPence, applies };
}

/** A code's discount in words: "20% off", "£5.00 off each ticket", "Free (complimentary)". */
export function discountWords(terms: Pick<PromoTerms, "kind" | "percentOff" | "amountOffPence">): string {
  if (terms.kind === "free") return "Free (complimentary)";
  if (terms.kind === "percent") return terms.percentOff === 100 ? "100% off" : `${terms.percentOff}% off`;
  return `${formatPounds(terms.amountOffPence ?? 0)} off each ticket`;
}

/** A code as typed, as it is kept: trimmed, in capitals (codes match whatever case is typed). */
export function normaliseCode(typed: string): string {
  return typed.trim().toUpperCase();
}

/** What a code may be: 3 to 30 letters, digits and dashes. */
export const codePattern = /^[A-Z0-9][A-Z0-9_-]{2,29}$/;

export const promoMessages = {
  unknown: "There is no such promo code.",
  disabled: "This promo code is no longer valid.",
  expired: "This promo code has expired.",
  usedUp: "This promo code has been used up.",
  otherEvent: "This promo code is not for this event.",
  noTickets: "This promo code is not for any of the tickets chosen.",
} as const;

/** A code as the staff pages list it. */
export interface CodeSummary {
  id: string;
  code: string;
  eventId: string | null;
  eventName: string | null;
  discount: string;
  ticketTypes: string[];
  maxUses: number | null;
  validUntil: string | null;
  off: boolean;
  uses: number;
  givenPence: number;
  createdBy: string;
  createdAt: string;
}

/** The last moment a code works: its `validUntil` is the London midnight after its last day. */
export const lastMomentOf = (validUntil: Date | string) => new Date(new Date(validUntil).getTime() - 1);
