import type { Database } from "~/infra/db/database.server";
import { addDefaultTypes } from "~/infra/db/ticket-types.server";
import { bookingHistory, bookingItems, bookings, events, offlinePayments, tickets } from "~db/schema";

const day = 24 * 60 * 60 * 1000;

/** `days` from now at `hourUtc` (19:00 UTC: 7 pm in winter, 8 pm in summer, London time). */
function evening(now: Date, days: number, hourUtc = 19) {
  const date = new Date(now.getTime() + days * day);
  date.setUTCHours(hourUtc, 0, 0, 0);
  return date;
}

/**
 * The last `month`/`day` (at `hourUtc`) at least a week before `now`: a past event's date that
 * agrees with its name (a summer ceilidh in July, carols in December), whenever the site starts.
 */
function lastPast(now: Date, month: number, day: number, hourUtc = 19) {
  const date = new Date(Date.UTC(now.getUTCFullYear(), month - 1, day, hourUtc));
  if (date.getTime() > now.getTime() - 7 * 24 * 60 * 60 * 1000) date.setUTCFullYear(date.getUTCFullYear() - 1);
  return date;
}

/** A day before `date`, at noon UTC: when a past event's ticket sale closed. */
function dayBefore(date: Date) {
  const closed = new Date(date.getTime() - day);
  closed.setUTCHours(12, 0, 0, 0);
  return closed;
}

/**
 * What the embedded default starts with, so a new install shows every state of the events pages:
 * two current events (one nearly sold out), two past, one test event and one sold elsewhere.
 * Dates are relative to the first start (the past ones in their season). Each has a picture of what
 * it is. Only ever added to an empty events table.
 */
export async function seedSampleEvents(
  db: Database,
  now: Date,
  /** The booking's price for `quantity` tickets at `ticketCostPence` each (the booking feature's rule). */
  bookingTotalPence: (ticketCostPence: number, quantity: number) => number,
) {
  if ((await db.$count(events)) > 0) return false;
  await db.transaction(async (tx) => {
    const [quiz, walk] = await tx
      .insert(events)
      .values(
        [
          {
            name: "Kilele Quiz Night",
            description:
              "Eight rounds of general knowledge, a picture round and a Tanzanian-themed music round, with a fish-and-chip supper. Teams of up to six; come as a team or join one on the night.",
            posterImage: "pages/quiz-night",
            eventDate: evening(now, 35),
            location: "St Mary's Church Hall, Ledbury",
            ticketCostPence: 1250,
            totalAvailableTickets: 90,
            ticketSaleExpiry: evening(now, 34, 12),
            link: null,
            testimonial: {
              name: "Joseph Kimaro",
              job: "Head teacher, Kilele Primary School",
              image: "people/joseph-kimaro",
              testimonial:
                "Last year's quiz paid for the desks in our new classroom. The children asked me to say asante sana to every team!",
            },
            gallery: [
              {
                image: "gallery/classroom-opening-day",
                description: "The classroom block the last quiz helped to furnish.",
              },
              {
                image: "gallery/exercise-books",
                description: "Exercise books and pencils bought with the raffle money.",
              },
            ],
          },
          {
            name: "Malvern Hills Sponsored Walk",
            description:
              "A ten-mile walk along the ridge of the Malvern Hills, with refreshments at the halfway point and a cream tea at the finish. Your ticket covers the tea and a walk pack.",
            posterImage: "pages/sponsored-walk",
            eventDate: evening(now, 21, 8),
            location: "British Camp car park, Malvern",
            ticketCostPence: 1500,
            totalAvailableTickets: 40,
            ticketSaleExpiry: evening(now, 19, 12),
          },
          {
            name: "Summer Ceilidh",
            description:
              "An evening of Scottish and Irish dancing with the Hereford Ceilidh Band, and a Tanzanian supper.",
            posterImage: "pages/ceilidh",
            eventDate: lastPast(now, 7, 11),
            location: "Ledbury Market Hall",
            ticketCostPence: 1800,
            totalAvailableTickets: 120,
            ticketSaleExpiry: dayBefore(lastPast(now, 7, 11)),
          },
          {
            name: "Christmas Carol Concert",
            description:
              "Carols by candlelight with the Ledbury Community Choir and the children's choir of Kilele Primary, on film.",
            posterImage: "pages/carol-concert",
            eventDate: lastPast(now, 12, 14, 18),
            location: "St Michael and All Angels, Ledbury",
            ticketCostPence: 800,
            totalAvailableTickets: 200,
            ticketSaleExpiry: dayBefore(lastPast(now, 12, 14, 18)),
          },
          {
            name: "Test event: card payment check",
            description: "Used by the trustees to check that card payments and receipts work. The event is not real.",
            posterImage: "pages/donation-success",
            eventDate: evening(now, 60),
            location: "Online",
            ticketCostPence: 100,
            totalAvailableTickets: 1000,
            ticketSaleExpiry: evening(now, 59, 12),
            isTest: true,
          },
          {
            name: "Kilele Golf Day",
            description:
              "A Texas scramble at Ross-on-Wye Golf Club, with lunch and prizes. Places are booked through the club's own ticketing page.",
            posterImage: "pages/golf-day",
            eventDate: evening(now, 70, 9),
            location: "Ross-on-Wye Golf Club",
            ticketCostPence: null,
            totalAvailableTickets: 72,
            ticketSaleExpiry: evening(now, 63, 12),
            link: "https://tickets.example.org/kilele-golf-day",
          },
        ].map((event) => ({ ...event, createdAt: now, updatedAt: now })),
      )
      .returning({ id: events.id, ticketCostPence: events.ticketCostPence });
    const typeOf = await addDefaultTypes(tx, [quiz!, walk!], now);
    // Bookings already taken, so the quiz shows sales and the walk is down to its last two places.
    // Each is a paid booking on the offline test card provider, as a real sale is, so staff can open
    // it, refund it and let it in at the door.
    const sales = [
      ...[4, 6, 2, 5].map((quantity, i) => ({
        name: `Sample Booking ${i + 1}`,
        email: `sample-booking-${i + 1}@example.org`,
        event: quiz!,
        quantity,
        soldAt: new Date(now.getTime() - (i + 1) * day),
      })),
      ...[10, 12, 8, 8].map((quantity, i) => ({
        name: `Sample Walker ${i + 1}`,
        email: `sample-walker-${i + 1}@example.org`,
        event: walk!,
        quantity,
        soldAt: new Date(now.getTime() - (i + 2) * day),
      })),
    ];
    for (const sale of sales) {
      const bookingRef = crypto.randomUUID();
      const paymentId = `pi_offline_sample_${bookingRef.replace(/-/g, "").slice(0, 16)}`;
      const amountPence = bookingTotalPence(sale.event.ticketCostPence!, sale.quantity);
      await tx.insert(offlinePayments).values({
        id: paymentId,
        clientSecret: `${paymentId}_secret_sample`,
        amountPence,
        currency: "gbp",
        description: `Sample booking ${bookingRef}`,
        metadata: { booking_ref: bookingRef, event_id: sale.event.id },
        receiptEmail: sale.email,
        status: "succeeded",
        createdAt: sale.soldAt,
      });
      await tx.insert(bookings).values({
        bookingRef,
        eventId: sale.event.id,
        holderName: sale.name,
        email: sale.email,
        quantity: sale.quantity,
        seats: sale.quantity,
        amountPence,
        status: "paid",
        holdExpiresAt: sale.soldAt,
        provider: "offline",
        providerPaymentId: paymentId,
        createdAt: sale.soldAt,
        paidAt: sale.soldAt,
        updatedAt: sale.soldAt,
      });
      await tx.insert(bookingItems).values({
        bookingRef,
        ticketTypeId: typeOf.get(sale.event.id)!,
        quantity: sale.quantity,
        pricePence: sale.event.ticketCostPence!,
        seatsPerTicket: 1,
      });
      await tx.insert(bookingHistory).values({ bookingRef, status: "paid", note: "Sample booking", at: sale.soldAt });
      await tx.insert(tickets).values({
        ticketHolderName: sale.name,
        email: sale.email,
        eventId: sale.event.id,
        bookingRef,
        quantity: sale.quantity,
        dateSold: sale.soldAt,
      });
    }
  });
  return true;
}
