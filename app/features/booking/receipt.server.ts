import QRCode from "qrcode";
import type { Charity } from "~/infra/payments/provider.server";
import type { MailMessage } from "~/infra/email/mailer.server";
import { checkInPath, shortCode } from "~/lib/booking-code";
import { calendarFile as eventCalendarFile } from "~/lib/calendar";
import { escapeHtml } from "~/lib/html";
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
  charity: Charity;
}

/**
 * The booking receipt (call 10 of docs/specification.md, section 7, sent by our server): HTML and
 * text, a QR code and a calendar file.
 */
export async function bookingReceipt(details: ReceiptDetails): Promise<MailMessage> {
  const { event, charity } = details;
  const date = londonDate(event.eventDate);
  const time = londonTime(event.eventDate);
  const location = event.location || "to be confirmed";
  const total = formatPounds(details.amountPence);
  const tickets = `${details.quantity} × ${formatPounds(details.ticketCostPence)} + ${formatPounds(bookingFeePence)} booking fee`;
  const code = shortCode(details.bookingRef);
  // A staff phone's camera app opens the door page for this booking; the door scanner reads it too.
  const qrLink = new URL(checkInPath(details.bookingRef), details.charity.website).toString();
  const qr = await QRCode.toBuffer(qrLink, {
    type: "png",
    width: 240,
    margin: 1,
    errorCorrectionLevel: "M",
  });
  const calendar = calendarFile(details);

  const lines = [
    `Dear ${details.holderName},`,
    "",
    `We have received your booking for ${event.name}. Your booking reference is ${details.bookingRef}.`,
    `Booking code for the door: ${code}`,
    "",
    "Thank you for helping to raise money for the village of Kilele.",
    "",
    `Event: ${event.name}`,
    `Date: ${date}`,
    `Time: ${time}`,
    `Location: ${location}`,
    `Tickets: ${details.quantity}`,
    `Total paid: ${total} (${tickets})`,
    "",
    "Please bring this e-mail, or your booking code, with you: we will scan the QR code at the door.",
    "",
    `${charity.name}, registered charity number ${charity.registrationNumber}`,
    `Questions? Reply to ${charity.email}.`,
  ];

  const html = `<!doctype html><html lang="en-GB"><body style="font-family:Arial,Helvetica,sans-serif;color:#1d1d1b;line-height:1.5">
<h1 style="color:#143820;font-size:22px">Booking confirmed: ${escapeHtml(event.name)}</h1>
<p>Dear ${escapeHtml(details.holderName)},</p>
<p>We have received your booking for <strong>${escapeHtml(event.name)}</strong>. Your booking reference is <strong>${details.bookingRef}</strong>.</p>
<p>Thank you for helping to raise money for the village of Kilele.</p>
<table role="presentation" cellpadding="4" style="border-collapse:collapse">
<tr><th align="left">Booking code</th><td style="font-size:20px;font-weight:bold;letter-spacing:2px">${code}</td></tr>
<tr><th align="left">Date</th><td>${date}</td></tr>
<tr><th align="left">Time</th><td>${time}</td></tr>
<tr><th align="left">Location</th><td>${escapeHtml(location)}</td></tr>
<tr><th align="left">Tickets</th><td>${details.quantity}</td></tr>
<tr><th align="left">Total paid</th><td>${total} (${escapeHtml(tickets)})</td></tr>
</table>
<p><img src="cid:booking-qr" width="160" height="160" alt="QR code for the door: booking ${code}"></p>
<p>Please bring this e-mail, or your booking code, with you: we will scan the QR code at the door.</p>
<p style="color:#4d4a44;font-size:13px">${escapeHtml(charity.name)}, registered charity number ${escapeHtml(charity.registrationNumber)}.<br>Questions? Reply to <a href="mailto:${escapeHtml(charity.email)}">${escapeHtml(charity.email)}</a>.</p>
</body></html>`;

  return {
    to: `${details.holderName} <${details.email}>`,
    subject: `Your booking for ${event.name} (${details.bookingRef})`,
    text: lines.join("\n"),
    html,
    attachments: [
      { filename: "booking-qr.png", contentType: "image/png", content: qr.toString("base64"), cid: "booking-qr" },
      ...(calendar
        ? [{ filename: "event.ics", contentType: "text/calendar", content: Buffer.from(calendar).toString("base64") }]
        : []),
    ],
  };
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
  details: Omit<ReceiptDetails, "ticketCostPence">,
  why: "full" | "cancelled" = "full",
): MailMessage {
  const text = [
    `Dear ${details.holderName},`,
    "",
    why === "cancelled"
      ? `We are sorry: ${details.event.name} has been cancelled, so we cannot accept your payment.`
      : `We are sorry: your payment for ${details.event.name} arrived after your seats were released, and the event is now full.`,
    `We have refunded the full ${formatPounds(details.amountPence)} to your card; it can take 5 to 10 days to appear.`,
    `Your booking reference was ${details.bookingRef}.`,
    "",
    `${details.charity.name}, registered charity number ${details.charity.registrationNumber}`,
    `Questions? Reply to ${details.charity.email}.`,
  ].join("\n");
  return {
    to: `${details.holderName} <${details.email}>`,
    subject:
      why === "cancelled"
        ? `Sorry: ${details.event.name} is cancelled, and your payment has been refunded`
        : `Sorry: ${details.event.name} is full, and your payment has been refunded`,
    text,
    html: `<!doctype html><html lang="en-GB"><body style="font-family:Arial,Helvetica,sans-serif">${text
      .split("\n")
      .map((line) => (line ? `<p>${escapeHtml(line)}</p>` : ""))
      .join("")}</body></html>`,
  };
}
