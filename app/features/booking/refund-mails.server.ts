import type { MailMessage } from "~/infra/email/mailer.server";
import type { Charity } from "~/infra/payments/provider.server";
import { shortCode } from "~/lib/booking-code";
import { escapeHtml } from "~/lib/html";
import { londonDate, londonTime } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";

// The buyer's e-mails about money given back: a refund staff made (part or all of a booking), and
// an event cancelled. Text and HTML say the same, paragraph by paragraph.

interface Buyer {
  bookingRef: string;
  holderName: string;
  email: string;
  event: { name: string; eventDate: Date };
  charity: Charity;
}

function message(to: Buyer, subject: string, heading: string, paragraphs: string[]): MailMessage {
  const footer = [
    `${to.charity.name}, registered charity number ${to.charity.registrationNumber}`,
    `Questions? Reply to ${to.charity.email}.`,
  ];
  const text = [`Dear ${to.holderName},`, "", ...paragraphs.flatMap((p) => [p, ""]), ...footer].join("\n");
  const html = `<!doctype html><html lang="en-GB"><body style="font-family:Arial,Helvetica,sans-serif;color:#1d1d1b;line-height:1.5">
<h1 style="color:#143820;font-size:22px">${escapeHtml(heading)}</h1>
<p>Dear ${escapeHtml(to.holderName)},</p>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n")}
<p style="color:#4d4a44;font-size:13px">${escapeHtml(footer[0]!)}.<br>Questions? Reply to <a href="mailto:${escapeHtml(to.charity.email)}">${escapeHtml(to.charity.email)}</a>.</p>
</body></html>`;
  return { to: `${to.holderName} <${to.email}>`, subject, text, html };
}

function when(event: Buyer["event"]) {
  return `${londonDate(event.eventDate)} at ${londonTime(event.eventDate)}`;
}

/** What staff refunded, how much, why, and what is still valid. */
export function refundMade(
  to: Buyer,
  refund: { quantity: number; amountPence: number; reason: string; ticketsLeft: number },
): MailMessage {
  const tickets = `${refund.quantity} ${refund.quantity === 1 ? "ticket" : "tickets"}`;
  const left =
    refund.ticketsLeft === 0
      ? "Your booking has no tickets left, so there is nothing to bring to the door."
      : `Your booking still has ${refund.ticketsLeft} valid ${refund.ticketsLeft === 1 ? "ticket" : "tickets"}: bring your receipt or booking code ${shortCode(to.bookingRef)} to the door as before.`;
  return message(to, `Refund for ${to.event.name} (${to.bookingRef})`, `Your refund: ${to.event.name}`, [
    `We have refunded ${tickets} of your booking for ${to.event.name} (${when(to.event)}): ${formatPounds(refund.amountPence)} is on its way back to your card, and can take 5 to 10 days to appear.`,
    `Why: ${refund.reason}`,
    left,
    `Your booking reference is ${to.bookingRef}.`,
  ]);
}

/** The event will not take place; the money is back on the buyer's card. */
export function eventCancelledNotice(to: Buyer, cancellation: { reason: string; amountPence: number }): MailMessage {
  return message(to, `Cancelled: ${to.event.name} (${to.bookingRef})`, `${to.event.name} is cancelled`, [
    `We are sorry: ${to.event.name}, planned for ${when(to.event)}, has been cancelled.`,
    `Why: ${cancellation.reason}`,
    `We have refunded ${formatPounds(cancellation.amountPence)} to your card; it can take 5 to 10 days to appear. Your tickets are no longer valid.`,
    `Your booking reference was ${to.bookingRef}.`,
  ]);
}
