import QRCode, { type QRCodeToBufferOptions } from "qrcode";
import type { Charity } from "~/infra/payments/provider.server";
import { composeLetter, mapLink, paragraphs, type Line } from "~/infra/email/letter.server";
import type { MailMessage } from "~/infra/email/mailer.server";
import { checkInPath, shortCode } from "~/lib/booking-code";
import { calendarFile as eventCalendarFile } from "~/lib/calendar";
import { cardLabel, type PaymentCard } from "~/lib/payment-card";
import { londonDate, londonTime } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { bookingFeePence } from "./pricing";

export interface ReceiptDetails {
  bookingRef: string;
  holderName: string;
  email: string;
  quantity: number;
  amountPence: number;
  ticketCostPence: number;
  event: { name: string; eventDate: Date; location: string };
  /** When the payment was taken. */
  paidAt: Date;
  /** The card it was taken from, where the provider said. */
  card: PaymentCard | null;
  charity: Charity;
}

/**
 * The booking receipt (call 10 of docs/specification.md, section 7, sent by our server): the
 * booking received with its reference, thanks for raising money for the village, the event's date,
 * time and place with a map, the door code and its QR code, what was paid, when and with which
 * card, and the refund policy; a calendar file attached.
 */
export async function bookingReceipt(details: ReceiptDetails): Promise<MailMessage> {
  const { event, charity } = details;
  const date = londonDate(event.eventDate);
  const time = londonTime(event.eventDate);
  const location = event.location || "to be confirmed";
  const code = shortCode(details.bookingRef);
  // A staff phone's camera app opens the door page for this booking; the door scanner reads it too.
  const qrLink = new URL(checkInPath(details.bookingRef), details.charity.website).toString();
  const qr = await QRCode.toBuffer(qrLink, {
    type: "png",
    width: 240,
    margin: 1,
    errorCorrectionLevel: "M",
    // One row filter (Paeth) rather than pngjs trying all five on every row: half the time to draw
    // (1.7 ms against 3.5 ms a receipt), for 2% more bytes (docs/performance.md, "Ticket rush").
    // (pngjs's own option: qrcode passes it on, its types do not list it.)
    rendererOpts: { filterType: 4 } as QRCodeToBufferOptions["rendererOpts"],
  });
  const calendar = calendarFile(details);

  return composeLetter({
    to: { name: details.holderName, address: details.email },
    subject: `Your booking for ${event.name} (${details.bookingRef})`,
    title: `Booking confirmed: ${event.name}`,
    greeting: `Dear ${details.holderName},`,
    charity,
    blocks: [
      {
        paragraph: [
          "We have received your booking for ",
          { strong: event.name },
          `. Your booking reference is ${details.bookingRef}.`,
        ],
      },
      { paragraph: "Thank you for helping to raise money for the village of Kilele." },
      { heading: "Your tickets" },
      {
        rows: [
          ["Booking code for the door", [{ strong: code }]],
          ["Booking reference", details.bookingRef],
          ["Event", event.name],
          ["Date", date],
          ["Time", time],
          ["Location", location],
          ...(event.location
            ? [["Directions", [{ link: `Map of ${event.location}`, href: mapLink(event.location) }]] as [string, Line]]
            : []),
        ],
      },
      { picture: { cid: "booking-qr", alt: `QR code for the door: booking ${code}`, width: 160, height: 160 } },
      { paragraph: "Please bring this e-mail, or your booking code, with you: we will scan the QR code at the door." },
      ...(calendar ? [{ paragraph: "The calendar file attached (event.ics) puts the event in your calendar." }] : []),
      { heading: "Payment" },
      {
        rows: [
          [
            "Tickets",
            `${details.quantity} × ${formatPounds(details.ticketCostPence)} = ${formatPounds(details.quantity * details.ticketCostPence)}`,
          ],
          ["Booking fee", formatPounds(bookingFeePence)],
          ["Total paid", [{ strong: formatPounds(details.amountPence) }]],
          ["Paid on", `${londonDate(details.paidAt)} at ${londonTime(details.paidAt)}`],
          ...(details.card ? [["Card", cardLabel(details.card)] as [string, Line]] : []),
        ],
      },
      { heading: "Refunds" },
      ...paragraphs(charity.receipts.ticketRefundPolicy),
    ],
    attachments: [
      { filename: "booking-qr.png", contentType: "image/png", content: qr.toString("base64"), cid: "booking-qr" },
      ...(calendar
        ? [{ filename: "event.ics", contentType: "text/calendar", content: Buffer.from(calendar).toString("base64") }]
        : []),
    ],
  });
}

function calendarFile(details: ReceiptDetails): string | undefined {
  return eventCalendarFile({
    uid: `${details.bookingRef}@kilele-trust`,
    title: details.event.name,
    start: details.event.eventDate,
    location: details.event.location,
    description: `Booking reference ${details.bookingRef}: ${details.quantity} ticket(s).`,
    organizer: { name: details.charity.name, email: details.charity.email },
  });
}

/** The apology when seats had gone by the time a late payment arrived, and the money went back. */
export function refundNotice(
  details: Pick<ReceiptDetails, "bookingRef" | "holderName" | "email" | "amountPence" | "event" | "charity">,
  why: "full" | "cancelled" | "confirmed-late" = "full",
): Promise<MailMessage> {
  const { event } = details;
  return composeLetter({
    to: { name: details.holderName, address: details.email },
    subject:
      why === "cancelled"
        ? `Sorry: ${event.name} is cancelled, and your payment has been refunded`
        : `Sorry: ${event.name} is full, and your payment has been refunded`,
    title: "Your payment has been refunded",
    greeting: `Dear ${details.holderName},`,
    charity: details.charity,
    blocks: [
      {
        paragraph:
          why === "cancelled"
            ? `We are sorry: ${event.name} has been cancelled, so we cannot accept your payment.`
            : why === "confirmed-late"
              ? `We are sorry: you paid for ${event.name} in time, but the card provider's confirmation reached us only after your seats had been released, and they have since been taken: the event is now full.`
              : `We are sorry: your payment for ${event.name} arrived after your seats were released, and the event is now full.`,
      },
      {
        paragraph: `We have refunded the full ${formatPounds(details.amountPence)} to your card; it can take 5 to 10 days to appear.`,
      },
      { paragraph: `Your booking reference was ${details.bookingRef}.` },
    ],
  });
}
