// Stripe's test cards and the card checks of the offline provider, shared by its card form in the
// browser and by the server, which decides.

export interface CardDetails {
  number: string;
  expiry: string;
  cvc: string;
}

export type TestCard =
  | { outcome: "succeeded" }
  /** `attaches`: saved as a customer's card (a card change succeeds), though every charge on it is declined. */
  | { outcome: "declined"; message: string; attaches?: true };

export const testCards: Record<string, TestCard> = {
  "4242424242424242": { outcome: "succeeded" },
  "4000000000000002": { outcome: "declined", message: "Your card was declined." },
  "4000000000009995": { outcome: "declined", message: "Your card has insufficient funds." },
  "4000000000000341": { outcome: "declined", message: "Your card was declined.", attaches: true },
};

/**
 * How a charge on a saved card ends, known by its last four digits (all the offline provider keeps):
 * the decline of a card that attaches but is never paid by (4000 0000 0000 0341); undefined when paid.
 */
export function savedCardDecline(last4: string | null): string | undefined {
  if (!last4) return undefined;
  for (const [number, card] of Object.entries(testCards)) {
    if (number.endsWith(last4) && card.outcome === "declined" && card.attaches) return card.message;
  }
  return undefined;
}

export function cardDigits(number: string) {
  return number.replace(/[\s-]/g, "");
}

/** What is wrong with the card details, in Stripe's words; undefined when the form is complete. */
export function cardProblem(card: CardDetails, now: Date): string | undefined {
  const number = cardDigits(card.number);
  if (!/^\d{12,19}$/.test(number)) return "Your card number is incomplete.";
  const expiry = /^(\d{2})\s*\/\s*(\d{2})$/.exec(card.expiry.trim());
  if (!expiry) return "Your card's expiration date is incomplete.";
  const month = Number(expiry[1]);
  const year = 2000 + Number(expiry[2]);
  if (month < 1 || month > 12) return "Your card's expiration date is invalid.";
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) {
    return "Your card's expiration year is in the past.";
  }
  if (!/^\d{3,4}$/.test(card.cvc.trim())) return "Your card's security code is incomplete.";
  if (!testCards[number]) return "Your card number is incorrect. Use one of the test cards shown above.";
  return undefined;
}
