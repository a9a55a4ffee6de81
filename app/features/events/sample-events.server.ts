import type { Database } from "~/infra/db/database.server";
import { events, tickets } from "../../../db/schema";

const day = 24 * 60 * 60 * 1000;

/** `days` from now at `hourUtc` (19:00 UTC: 7 pm in winter, 8 pm in summer, London time). */
function evening(now: Date, days: number, hourUtc = 19) {
  const date = new Date(now.getTime() + days * day);
  date.setUTCHours(hourUtc, 0, 0, 0);
  return date;
}

/**
 * What the embedded default starts with, so a new install shows every state of the events pages:
 * two current events (one nearly sold out), two past, one test event and one sold elsewhere.
 * Dates are relative to the first start. Only ever added to an empty events table.
 */
export async function seedSampleEvents(db: Database, now: Date) {
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
            posterImage: "wheel/village-dusk",
            eventDate: evening(now, -120),
            location: "Ledbury Market Hall",
            ticketCostPence: 1800,
            totalAvailableTickets: 120,
            ticketSaleExpiry: evening(now, -121, 12),
          },
          {
            name: "Christmas Carol Concert",
            description:
              "Carols by candlelight with the Ledbury Community Choir and the children's choir of Kilele Primary, on film.",
            posterImage: "wheel/baobab-afternoon",
            eventDate: evening(now, -330),
            location: "St Michael and All Angels, Ledbury",
            ticketCostPence: 800,
            totalAvailableTickets: 200,
            ticketSaleExpiry: evening(now, -331, 12),
          },
          {
            name: "Test event: card payment check",
            description:
              "Used by the trustees to check that card payments and receipts work. The event is not real, but real money will be charged.",
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
            posterImage: "projects/football-pitch",
            eventDate: evening(now, 70, 9),
            location: "Ross-on-Wye Golf Club",
            ticketCostPence: null,
            totalAvailableTickets: 72,
            ticketSaleExpiry: evening(now, 63, 12),
            link: "https://tickets.example.org/kilele-golf-day",
          },
        ].map((event) => ({ ...event, createdAt: now, updatedAt: now })),
      )
      .returning({ id: events.id });
    // Bookings already taken, so the quiz shows sales and the walk is down to its last two places.
    await tx.insert(tickets).values([
      ...[4, 6, 2, 5].map((quantity, i) => ({
        ticketHolderName: `Sample Booking ${i + 1}`,
        email: `sample-booking-${i + 1}@example.org`,
        eventId: quiz!.id,
        bookingRef: crypto.randomUUID(),
        quantity,
        dateSold: new Date(now.getTime() - (i + 1) * day),
      })),
      ...[10, 12, 8, 8].map((quantity, i) => ({
        ticketHolderName: `Sample Walker ${i + 1}`,
        email: `sample-walker-${i + 1}@example.org`,
        eventId: walk!.id,
        bookingRef: crypto.randomUUID(),
        quantity,
        dateSold: new Date(now.getTime() - (i + 2) * day),
      })),
    ]);
  });
  return true;
}
