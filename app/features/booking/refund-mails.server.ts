import { composeLetter } from "~/infra/email/letter.server";
import type { MailMessage } from "~/infra/email/mailer.server";
import type { Charity } from "~/infra/payments/provider.server";
import { shortCode } from "~/lib/booking-code";
import { londonDate, londonTime } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";

// The buyer's e-mails about money given back: a refund staff made (part or all of a booking), and
// an event cancelled. Letters from the charity (infra/email/letter.server.ts), paragraph by paragraph.

interface Buyer {
  bookingRef: string;
  holderName: string;
  email: string;
  event: { name: string; eventDate: Date };
  charity: Charity;
}

function message(to: Buyer, subject: string, title: string, paragraphs: string[]): Promise<MailMessage> {
  return composeLetter({
    to: { name: to.holderName, address: to.email },
    subject,
    title,
    greeting: `Dear ${to.holderName},`,
    charity: to.charity,
    blocks: paragraphs.map((paragraph) => ({ paragraph })),
  });
}

function when(event: Buyer["event"]) {
  return `${londonDate(event.eventDate)} at ${londonTime(event.eventDate)}`;
}

/**
 * What staff refunded (of which type, where the booking had more than one), how much, why, and what
 * is still valid.
 */
export function refundMade(
  to: Buyer,
  refund: {
    quantity: number;
    typeName?: string | null;
    amountPence: number;
    reason: string;
    ticketsLeft: number;
    /** "2 × Adult, 1 × Child": what is left, where the booking had tickets of more than one type. */
    leftInWords?: string | null;
  },
): Promise<MailMessage> {
  const ticket = refund.typeName ? `${refund.typeName} ticket` : "ticket";
  const tickets = `${refund.quantity} ${refund.quantity === 1 ? ticket : `${ticket}s`}`;
  const left =
    refund.ticketsLeft === 0
      ? "Your booking has no tickets left, so there is nothing to bring to the door."
      : `Your booking still has ${refund.ticketsLeft} valid ${refund.ticketsLeft === 1 ? "ticket" : "tickets"}${refund.leftInWords ? ` (${refund.leftInWords})` : ""}: bring your receipt or booking code ${shortCode(to.bookingRef)} to the door as before.`;
  return message(to, `Refund for ${to.event.name} (${to.bookingRef})`, `Your refund: ${to.event.name}`, [
    `We have refunded ${tickets} of your booking for ${to.event.name} (${when(to.event)}): ${formatPounds(refund.amountPence)} is on its way back to your card, and can take 5 to 10 days to appear.`,
    `Why: ${refund.reason}`,
    left,
    `Your booking reference is ${to.bookingRef}.`,
  ]);
}

/** The event will not take place; the money is back on the buyer's card (or the free tickets are cancelled). */
export function eventCancelledNotice(
  to: Buyer,
  cancellation: { reason: string; amountPence: number },
): Promise<MailMessage> {
  return message(to, `Cancelled: ${to.event.name} (${to.bookingRef})`, `${to.event.name} is cancelled`, [
    `We are sorry: ${to.event.name}, planned for ${when(to.event)}, has been cancelled.`,
    `Why: ${cancellation.reason}`,
    cancellation.amountPence > 0
      ? `We have refunded ${formatPounds(cancellation.amountPence)} to your card; it can take 5 to 10 days to appear. Your tickets are no longer valid.`
      : "Your tickets were free, so there is nothing to refund. They are no longer valid.",
    `Your booking reference was ${to.bookingRef}.`,
  ]);
}
