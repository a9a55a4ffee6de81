import { parseDonationAmount } from "~/lib/donation-amount";
import { giftAidSchema, wantsGiftAid, type GiftAidDetails } from "~/lib/gift-aid-declaration";
import { fieldErrors } from "~/lib/forms";

// A gift at checkout (decision 085): a donation added to a booking, paid by the booking's one
// payment. Its amount and its Gift Aid declaration follow the donation page's rules and messages;
// the field names are POST /api/donations' own, but for the amount, which is `donationAmount`
// beside the tickets. Pure: the booking page and the checkout both check with these.

/** What the booking form sends of a gift: the amount in pounds, and the Gift Aid declaration if ticked. */
export const giftFieldNames = [
  "donationAmount",
  "giftAid",
  "firstName",
  "surname",
  "houseNameOrNumber",
  "postcode",
  "scope",
] as const;
export type GiftField = (typeof giftFieldNames)[number];

export const giftLabels = { donationAmount: "Add a donation" } as const;

/** A gift as the checkout records it. */
export interface CheckoutGift {
  amountPence: number;
  giftAid: GiftAidDetails | null;
}

/**
 * The gift added to a booking, checked: none when the amount is left empty; otherwise an amount
 * within the donation bounds (£1 to £10,000) and, only when Gift Aid is ticked, the declaration's
 * name, house, postcode and scope. Each faulty field gets the donation page's message.
 */
export function validateGift(
  input: unknown,
): { ok: true; gift: CheckoutGift | null } | { ok: false; errors: Partial<Record<GiftField, string>> } {
  const form = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const typed = form.donationAmount;
  if (typed === undefined || typed === null || (typeof typed === "string" && typed.trim() === "")) {
    return { ok: true, gift: null };
  }
  const errors: Partial<Record<GiftField, string>> = {};
  const amount = parseDonationAmount(typed);
  if (!amount.ok) errors.donationAmount = amount.message;
  const giftAid = wantsGiftAid(form.giftAid) ? giftAidSchema.safeParse(form) : undefined;
  if (giftAid && !giftAid.success) Object.assign(errors, fieldErrors(giftAid.error));
  if (!amount.ok || (giftAid && !giftAid.success)) return { ok: false, errors };
  return { ok: true, gift: { amountPence: amount.pence, giftAid: giftAid?.success ? giftAid.data : null } };
}
