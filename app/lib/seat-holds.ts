import { londonTime } from "./london-time";

// What visitors are told when no seats are left (PRODUCT.md, sold out versus reserved): the events
// pages say it in place of Book, and the booking API answers an attempt with it.

export const soldOutMessage = "Sorry, this event is sold out.";

/**
 * "All remaining tickets are reserved. Try again after 14:07." The time is when the first hold may
 * stop counting (its end, or after it the end of its payment's settling window, decision 030) in
 * London, rounded up to the minute so that "after" is true: a hold running out at 14:06:30 says 14:07.
 */
export function reservedMessage(firstHoldEnd: Date | string): string {
  const at = new Date(firstHoldEnd).getTime();
  return `All remaining tickets are reserved. Try again after ${londonTime(new Date(Math.ceil(at / 60_000) * 60_000))}.`;
}
