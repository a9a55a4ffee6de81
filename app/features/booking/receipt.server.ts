import type { Charity } from "~/infra/payments/provider.server";
import { qrPng } from "~/infra/email/qr-png.server";
import { composeLetter, mapLink, paragraphs, type Block, type Line } from "~/infra/email/letter.server";
import type { MailMessage } from "~/infra/email/mailer.server";
import { checkInPath, shortCode } from "~/lib/booking-code";
import { calendarFile as eventCalendarFile } from "~/lib/calendar";
import { cardLabel, type PaymentCard } from "~/lib/payment-card";
import { londonDate, londonTime } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { itemLine, onlyPlainTickets, placesOf, plainTypeName, type BookedItem } from "~/lib/booking-items";
import { plural } from "~/lib/plural";
import { attendeeLabel, type ShownAnswer } from "~/lib/questions";
import { bookingFeePence } from "./pricing";

/** Tickets of one type on a receipt: how many, at what price each, and the places each admits. */
export type ReceiptItem = Pick<BookedItem, "name" | "quantity" | "pricePence" | "seatsPerTicket">;

export interface ReceiptDetails {
  bookingRef: string;
  holderName: string;
  email: string;
  /** Tickets in the booking, of every type. */
  quantity: number;
  amountPence: number;
  /** The tickets of each type (decision 082). */
  items: ReceiptItem[];
  event: { name: string; eventDate: Date; location: string };
  /** When the payment was taken. */
  paidAt: Date;
  /** The card it was taken from, where the provider said. */
  card: PaymentCard | null;
  /** A donation added at checkout, paid by the same payment, with its Gift Aid words if declared (decision 085). */
  gift?: { amountPence: number; giftAidWording: string | null } | null;
  charity: Charity;
  /** The buyer's answers to the event's questions (decision 083), to check. */
  answers?: Pick<ShownAnswer, "question" | "attendee" | "answer">[];
  /** The promo code used and what it took off the tickets' prices (decision 084). */
  promo?: { code: string; discountPence: number } | null;
}

/**
 * The booking receipt (call 10 of docs/specification.md, section 7, sent by our server): the
 * booking received with its reference, thanks for raising money for the village, the event's date,
 * time and place with a map, the door code and its QR code (and the places it admits, when a
 * ticket admits more than one), what was paid for each type of ticket, the booking fee once, the
 * total, when and with which card, and the refund policy; a calendar file attached.
 */
export async function bookingReceipt(details: ReceiptDetails): Promise<MailMessage> {
  const { event, charity } = details;
  const date = londonDate(event.eventDate);
  const time = londonTime(event.eventDate);
  const location = event.location || "to be confirmed";
  const code = shortCode(details.bookingRef);
  // A staff phone's camera app opens the door page for this booking; the door scanner reads it too.
  const qrLink = new URL(checkInPath(details.bookingRef), details.charity.website).toString();
  const qr = qrPng(qrLink, { width: 240, margin: 1, errorCorrectionLevel: "M" });
  const calendar = calendarFile(details);
  const items = details.items.filter((item) => item.quantity > 0);
  const places = placesOf(items);
  const ticketsPence = items.reduce((sum, item) => sum + item.quantity * item.pricePence, 0);
  // A booking whose tickets are all free pays no booking fee (decision 078).
  const feePence = ticketsPence > 0 ? bookingFeePence : 0;
  const gift = details.gift ?? null;

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
          // A table of eight is one ticket that admits eight: the door counts people.
          ...(places !== details.quantity ? [["Admits", plural(places, "person", "people")] as [string, Line]] : []),
          ...(event.location
            ? [["Directions", [{ link: `Map of ${event.location}`, href: mapLink(event.location) }]] as [string, Line]]
            : []),
        ],
      },
      ...answerBlocks(details.answers ?? []),
      { picture: { cid: "booking-qr", alt: `QR code for the door: booking ${code}`, width: 160, height: 160 } },
      { paragraph: "Please bring this e-mail, or your booking code, with you: we will scan the QR code at the door." },
      ...(calendar ? [{ paragraph: "The calendar file attached (event.ics) puts the event in your calendar." }] : []),
      { heading: "Payment" },
      {
        rows: [
          ...ticketRows(items),
          ...(details.promo ? [promoRow(details.promo)] : []),
          ...(feePence > 0 ? [["Booking fee", formatPounds(feePence)] as [string, Line]] : []),
          ...(gift ? [["Tickets total", formatPounds(details.amountPence)] as [string, Line]] : []),
          ...(gift ? [["Your donation", formatPounds(gift.amountPence)] as [string, Line]] : []),
          ["Total paid", [{ strong: formatPounds(details.amountPence + (gift?.amountPence ?? 0)) }]],
          ["Paid on", `${londonDate(details.paidAt)} at ${londonTime(details.paidAt)}`],
          ...(details.card ? [["Card", cardLabel(details.card)] as [string, Line]] : []),
        ],
      },
      ...(gift ? giftBlocks(gift, charity) : []),
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

/** "Your answers", a row each: "Dietary needs (Attendee 2)": "Vegan"; nothing when none were given. */
function answerBlocks(answers: NonNullable<ReceiptDetails["answers"]>) {
  if (answers.length === 0) return [];
  return [
    { heading: "Your answers" },
    {
      rows: answers.map(
        (answer) =>
          [
            answer.attendee > 0 ? `${answer.question} (${attendeeLabel(answer.attendee)})` : answer.question,
            answer.answer,
          ] as [string, Line],
      ),
    },
  ];
}

/**
 * The donation added at checkout, apart from the tickets (decision 085): a donation, not a ticket's
 * price, with the Gift Aid declaration in the words the buyer agreed to, or a line saying none.
 */
function giftBlocks(gift: NonNullable<ReceiptDetails["gift"]>, charity: Charity): Block[] {
  return [
    { heading: "Your donation" },
    {
      paragraph: [
        "Thank you for your donation of ",
        { strong: formatPounds(gift.amountPence) },
        ` to ${charity.name}: a gift, apart from your tickets.`,
      ],
    },
    gift.giftAidWording
      ? { paragraph: `Gift Aid: you declared, "${gift.giftAidWording}"` }
      : { paragraph: "Gift Aid: not declared for this donation." },
  ];
}

/**
 * A booking's tickets for its receipt; a booking with none recorded by type (made before types)
 * is read as `plain`: that many of the plain type, at one price.
 */
export function receiptItems(items: ReceiptItem[], plain: { quantity: number; pricePence: number }): ReceiptItem[] {
  if (items.length > 0) return items;
  return [
    { name: plainTypeName, quantity: plain.quantity, pricePence: Math.max(0, plain.pricePence), seatsPerTicket: 1 },
  ];
}

/**
 * What the tickets cost: "Tickets: 2 × £12.50 = £25.00" for the one plain type, as every receipt
 * said before types; otherwise a line for each type, "2 × Adult £12.50: £25.00".
 */
function ticketRows(items: ReceiptItem[]): [string, Line][] {
  if (onlyPlainTickets(items)) {
    const [{ quantity, pricePence }] = items as [ReceiptItem];
    return [["Tickets", `${quantity} × ${formatPounds(pricePence)} = ${formatPounds(quantity * pricePence)}`]];
  }
  return items.map((item) => [itemLine(item), formatPounds(item.quantity * item.pricePence)]);
}

/** "Promo code SAVE20: -£5.00": the tickets' prices above are already what was paid, after it. */
function promoRow(promo: NonNullable<ReceiptDetails["promo"]>): [string, Line] {
  return [`Promo code ${promo.code}`, `-${formatPounds(promo.discountPence)} (taken off the prices above)`];
}

function calendarFile(details: ReceiptDetails): string | undefined {
  return eventCalendarFile({
    uid: `${details.bookingRef}@kilele-trust`,
    title: details.event.name,
    start: details.event.eventDate,
    location: details.event.location,
    description: `Booking reference ${details.bookingRef}: ${details.quantity} ticket(s).`,
    organizer: { name: details.charity.name, email: details.charity.email },
    // Made when it was paid for: the same file each time the receipt is made again.
    madeAt: details.paidAt,
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
