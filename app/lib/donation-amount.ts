import { formatPounds, parsePence } from "~/lib/money";

// Donation amounts: integer pence, chosen from the presets or typed in pounds and pence; the same
// rules for a donation made on its own page and one added to a booking (decision 085).

/** The smallest and largest card donation the site takes: £1 and £10,000. */
export const donationBounds = { minPence: 100, maxPence: 1_000_000 } as const;

export const amountMessages = {
  invalid: "Please enter an amount in pounds and pence, such as 25 or 12.50.",
  tooSmall: `The smallest donation we can take by card is ${formatPounds(donationBounds.minPence)}.`,
  tooLarge: `The largest donation we can take online is ${formatPounds(donationBounds.maxPence)}. For a larger gift, please contact us.`,
} as const;

export type AmountResult = { ok: true; pence: number } | { ok: false; message: string };

/**
 * A donation amount from what the visitor typed or the URL carried ("25", "12.50", "£1,000"):
 * pence within the bounds, or the message saying what is wrong. No floating point is involved.
 */
export function parseDonationAmount(input: unknown): AmountResult {
  if (typeof input !== "string" && typeof input !== "number") return { ok: false, message: amountMessages.invalid };
  // Thousands separators are fine where they separate thousands ("1,000" but not "1,00").
  const text = typeof input === "string" ? input.trim().replace(/,(?=\d{3}(?:\D|$))/g, "") : input;
  const pence = parsePence(text);
  if (pence === undefined) return { ok: false, message: amountMessages.invalid };
  if (pence < donationBounds.minPence) return { ok: false, message: amountMessages.tooSmall };
  if (pence > donationBounds.maxPence) return { ok: false, message: amountMessages.tooLarge };
  return { ok: true, pence };
}

/** The amount as the URL carries it: `/payment?amount=25.00`. */
export function amountParam(pence: number) {
  return `${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, "0")}`;
}

/** What Gift Aid adds: 25p for every £1 given (basic-rate tax reclaimed from HMRC), in whole pence. */
export function giftAidPence(pence: number) {
  return Math.floor((pence * 25) / 100);
}
