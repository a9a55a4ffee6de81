import { isUuid } from "~/lib/ids";

// The donation amount rules live in app/lib (decision 085): a gift at checkout follows them too.
export {
  amountMessages,
  amountParam,
  donationBounds,
  giftAidPence,
  parseDonationAmount,
  type AmountResult,
} from "~/lib/donation-amount";

/** How long after an event's thank-you a gift made through its link counts for the event (decision 095). */
export const thankYouDays = 30;

/** The event a donation page's `from` names (`event:<id>`, an event's thank-you), or undefined. */
export function donationSource(from: unknown): string | undefined {
  if (typeof from !== "string" || !from.startsWith("event:")) return undefined;
  const id = from.slice(6);
  return isUuid(id) ? id : undefined;
}
