// The card a payment was made with, as receipts name it: its brand and last four digits, never more.
// Stripe reports them on the payment's charge; the offline test provider reads them from the number
// typed.

export interface PaymentCard {
  /** Stripe's brand names: visa, mastercard, amex, discover, diners, jcb, unionpay, ... */
  brand: string;
  last4: string;
}

const brandNames: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
  cartes_bancaires: "Cartes Bancaires",
  eftpos_au: "eftpos",
  interac: "Interac",
};

/** "Visa ending 4242"; a brand we do not know is just "Card ending 4242". */
export function cardLabel(card: PaymentCard): string {
  return `${brandNames[card.brand] ?? "Card"} ending ${card.last4}`;
}

/** The brand of a card number by its first digits (Stripe's names), as the offline provider reports it. */
export function cardBrandOf(digits: string): string {
  if (/^4/.test(digits)) return "visa";
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(digits)) return "mastercard";
  if (/^3[47]/.test(digits)) return "amex";
  if (/^(6011|65|64[4-9])/.test(digits)) return "discover";
  return "unknown";
}

/** Whether a provider's answer is a card we can name (four digits and a brand). */
export function isPaymentCard(value: { brand?: unknown; last4?: unknown } | null | undefined): value is PaymentCard {
  return typeof value?.brand === "string" && typeof value.last4 === "string" && /^\d{4}$/.test(value.last4);
}
