// Stripe's test cards and the card checks of the offline provider, shared by its card form in the
// browser and by the server, which decides.

export interface CardDetails {
  number: string;
  expiry: string;
  cvc: string;
}

export const testCards: Record<string, { outcome: "succeeded" } | { outcome: "declined"; message: string }> = {
  "4242424242424242": { outcome: "succeeded" },
  "4000000000000002": { outcome: "declined", message: "Your card was declined." },
  "4000000000009995": { outcome: "declined", message: "Your card has insufficient funds." },
};

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
