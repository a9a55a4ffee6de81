import { and, eq, isNull } from "drizzle-orm";
import { itemsOfBooking } from "~/infra/db/booking-items.server";
import type { OutboxWorker } from "~/infra/email/outbox.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";
import { paymentStatusText } from "~/infra/payments/status";
import { events, ticketTypes } from "~db/schema";
import { giftOfBooking } from "./gift.server";
import { settleBooking } from "./settlement.server";
import { bookingFeePence } from "./pricing";

/** The booking as the confirmation page shows it. */
export interface ConfirmedDetails {
  bookingRef: string;
  eventName: string;
  eventDate: string;
  location: string;
  name: string;
  quantity: number;
  /** The price of a ticket, of a booking of one type. */
  ticketCostPence: number;
  /** What the payment was for: the tickets, and the gift if any. */
  totalPence: number;
  /** A donation added at checkout, shown apart from the tickets (decision 085); 0 for none. */
  giftPence: number;
  /** The tickets by type ("2 × Adult £12.50"), of an event sold by type; absent for an event of one price. */
  lines?: { name: string; pricePence: number; quantity: number }[];
}

export type BookingReturn =
  | { kind: "unknown" }
  /** `pending`: the provider has not yet given the money back (it is asked again); the buyer is told once it has. */
  | { kind: "refunded"; details: ConfirmedDetails; pending: boolean }
  | { kind: "status"; status: string | null; details: ConfirmedDetails }
  | { kind: "paid"; status: string | null; details: ConfirmedDetails; receiptError: string | null };

/** What the receipt alert says when the first attempt failed: the outbox keeps trying, the visitor is reassured. */
export const receiptNotSentYet = "our mail server could not take it just now, and we will keep trying";

/**
 * The visitor is back from the payment provider at /confirmation: settle the booking from what the
 * provider says (never from the URL), and make the receipt's first attempt at once, so that a
 * failure can be told (the specification's alert); the outbox keeps retrying it.
 */
export async function bookingReturn(
  deps: PaymentDeps & { outbox: Pick<OutboxWorker, "deliver"> },
  bookingRef: string,
): Promise<BookingReturn> {
  const settlement = await settleBooking(deps, bookingRef);
  if (settlement.outcome === "unknown") return { kind: "unknown" };
  const { booking } = settlement;
  // What the confirmation page shows, from the settlement's own reading where it made one (decision 088).
  const read = settlement.outcome === "paid" ? settlement.read : undefined;
  const { event, items, gift, visibleTypes } = read ?? (await readAgain(deps, booking.eventId, bookingRef));
  const giftPence = gift?.amountPence ?? 0;
  // Listed by type when the booking has several, or the event sells several (decision 081).
  const byType = items.length > 1 || (items.length === 1 && visibleTypes > 1);
  const details: ConfirmedDetails = {
    bookingRef,
    eventName: event?.name ?? "",
    eventDate: event?.eventDate.toISOString() ?? "",
    location: event?.location ?? "",
    name: booking.holderName,
    quantity: booking.quantity,
    ticketCostPence:
      items.length === 1
        ? items[0]!.pricePence
        : booking.amountPence === 0
          ? 0
          : Math.round((booking.amountPence - bookingFeePence) / booking.quantity),
    totalPence: booking.amountPence + giftPence,
    giftPence,
    ...(byType && {
      lines: items.map(({ name, pricePence, quantity }) => ({ name, pricePence, quantity })),
    }),
  };
  if (settlement.outcome === "refunded") return { kind: "refunded", details, pending: false };
  if (settlement.outcome === "refunding") return { kind: "refunded", details, pending: true };
  if (settlement.outcome === "pending")
    return { kind: "status", status: paymentStatusText(settlement.status), details };
  const delivery = await deps.outbox.deliver("booking-receipt", bookingRef);
  if (delivery.ok === false) console.error(`The receipt for booking ${bookingRef} was not sent yet:`, delivery.error);
  return {
    kind: "paid",
    status: paymentStatusText("succeeded"),
    details,
    receiptError: delivery.ok === false ? receiptNotSentYet : null,
  };
}

/** The booking's event, tickets by type and gift, for an outcome the settlement answered without them. */
async function readAgain(deps: PaymentDeps, eventId: string, bookingRef: string) {
  const [[event], items, visibleTypes, gift] = await Promise.all([
    deps.db
      .select({ name: events.name, eventDate: events.eventDate, location: events.location })
      .from(events)
      .where(eq(events.id, eventId)),
    itemsOfBooking(deps.db, bookingRef),
    deps.db.$count(
      ticketTypes,
      and(eq(ticketTypes.eventId, eventId), eq(ticketTypes.hidden, false), isNull(ticketTypes.offSaleAt)),
    ),
    giftOfBooking(deps.db, bookingRef),
  ]);
  return {
    event,
    items,
    visibleTypes,
    gift: gift ? { amountPence: gift.donation.amountPence, wording: gift.declaration?.wording ?? null } : null,
  };
}
