// `npm run generate:bookings -- --events 3 --bookings 300`: fills a test or demonstration site with
// a few hundred realistic sales over time, for the charts (decision 094) and anyone trying the staff
// pages: new events with ticket types (one coming, the others past), paid bookings spread over the
// weeks before each (more near the day), some refunded in full or in part, check-ins at the door of
// the past ones, one-off gifts (some added at checkout, some refunded) and monthly gifts over the last
// year, with Gift Aid declarations, some already claimed. Uses the site's configuration (DATABASE_URL
// or DATA_DIR); with the embedded database, stop the site first. It refuses a live site: one in
// production or taking real card payments, unless told --yes-this-is-a-test-site.
//
// It writes the rows itself, as they stand after each step (paid, refunded, checked in), because a
// sale made through the site's own functions would be dated today; every row keeps the schema's
// checks and the counts agree (a ticket's places, a booking's refunded pence, a claim's total).
import { pathToFileURL } from "node:url";
import {
  bookingHistory,
  bookingItems,
  bookings,
  checkIns,
  donations,
  events,
  giftAidClaims,
  giftAidDeclarations,
  refunds,
  regularGifts,
  tickets,
  ticketTypes,
} from "~db/schema";
import { getConfig, type Config } from "../app/infra/config.server";
import { openDatabase, type Database } from "../app/infra/db/database.server";
import { billingMonthOf, monthlyPaymentDate, monthsBetween } from "../app/lib/billing-month";
import { systemClock } from "../app/lib/clock";
import { londonDay } from "../app/lib/london-time";

const dayMs = 24 * 60 * 60_000;
const minuteMs = 60_000;

export interface GenerateOptions {
  events: number;
  bookings: number;
  /** The same seed writes the same sales (relative to `now`). */
  seed: number;
}

export interface Generated {
  eventIds: string[];
  bookings: number;
  refunded: number;
  partlyRefunded: number;
  checkIns: number;
  donations: number;
  monthlyGifts: number;
  claimed: number;
}

/** Why the generator will not run here, or undefined: a live site (production, or real card payments). */
export function refusal(config: Pick<Config, "production" | "demoPayments">, yes: boolean): string | undefined {
  if (yes) return undefined;
  if (config.production)
    return "This is a production site (NODE_ENV=production): generated bookings would mix with real ones. On a test site, add --yes-this-is-a-test-site.";
  if (!config.demoPayments)
    return "This site takes real card payments: generated bookings would mix with real ones. On a test site, add --yes-this-is-a-test-site.";
  return undefined;
}

/** A small seeded generator (mulberry32): the same seed, the same numbers. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (low: number, high: number) => low + Math.floor(next() * (high - low + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
    uuid: () => {
      const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16));
      hex[12] = "4";
      hex[16] = ((Math.floor(next() * 4) & 0x3) | 0x8).toString(16);
      const s = hex.join("");
      return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
    },
  };
}

const eventNames = [
  "Spring Quiz Night",
  "Summer Barn Dance",
  "Autumn Curry Supper",
  "Winter Concert",
  "Safari Supper",
  "Family Fun Day",
  "Race Night",
  "Burns Night Ceilidh",
];
const firstNames = [
  "Amina",
  "Ben",
  "Chloe",
  "David",
  "Esther",
  "Farid",
  "Grace",
  "Hugh",
  "Imani",
  "Joe",
  "Kate",
  "Liam",
];
const surnames = ["Ali", "Brown", "Clarke", "Davies", "Evans", "Fisher", "Green", "Hughes", "Iqbal", "Jones", "Khan"];
const giftAmounts = [500, 1000, 1000, 2000, 2500, 5000, 10000];
const wording =
  "I want to Gift Aid my donation and any donations I make in the future or have made in the past 4 years to Kilele. I am a UK taxpayer and understand that if I pay less Income Tax and/or Capital Gains Tax than the amount of Gift Aid claimed on all my donations in that tax year it is my responsibility to pay any difference.";

/** Writes the sales into `db` as of `now`. */
export async function generateBookings(db: Database, now: Date, options: GenerateOptions): Promise<Generated> {
  const rng = random(options.seed);
  const person = (n: number) => {
    const first = rng.pick(firstNames);
    const last = rng.pick(surnames);
    return { first, last, name: `${first} ${last}`, email: `generated-${options.seed}-${n}@example.org` };
  };
  const result: Generated = {
    eventIds: [],
    bookings: 0,
    refunded: 0,
    partlyRefunded: 0,
    checkIns: 0,
    donations: 0,
    monthlyGifts: 0,
    claimed: 0,
  };
  const perEvent = Math.ceil(options.bookings / Math.max(1, options.events));
  let people = 0;
  const paidBookings: { ref: string; paidAt: Date; email: string; name: string; eventId: string }[] = [];
  await db.transaction(async (tx) => {
    for (let e = 0; e < options.events; e++) {
      // The first event is 40 days ahead, the others in the past, about four months apart.
      const eventDate = new Date(now.getTime() + (40 - e * 120) * dayMs);
      eventDate.setUTCHours(19, 0, 0, 0);
      const count = Math.min(perEvent, options.bookings - result.bookings);
      const seats = Math.max(60, Math.ceil((count * 4) / 10) * 10);
      const eventId = rng.uuid();
      const createdAt = new Date(eventDate.getTime() - 90 * dayMs);
      await tx.insert(events).values({
        id: eventId,
        name: `${eventNames[e % eventNames.length]} (generated)`,
        description: "Generated with npm run generate:bookings, to try the staff pages' figures and charts.",
        posterImage: "pages/quiz-night",
        eventDate,
        location: "St Mary's Church Hall, Ledbury",
        ticketCostPence: 500,
        totalAvailableTickets: seats,
        ticketSaleExpiry: new Date(eventDate.getTime() - 3 * 60 * minuteMs),
        createdAt: createdAt < now ? createdAt : now,
        updatedAt: createdAt < now ? createdAt : now,
      });
      const types = [
        { id: rng.uuid(), name: "Adult", pricePence: 1250, seatsPerTicket: 1, position: 0 },
        { id: rng.uuid(), name: "Child", pricePence: 500, seatsPerTicket: 1, position: 1 },
        { id: rng.uuid(), name: "Table of 8", pricePence: 9000, seatsPerTicket: 8, position: 2 },
      ];
      await tx.insert(ticketTypes).values(
        types.map((type) => ({
          ...type,
          eventId,
          createdAt: createdAt < now ? createdAt : now,
          updatedAt: createdAt < now ? createdAt : now,
        })),
      );
      result.eventIds.push(eventId);
      // Sales run from 60 days before the event to 3 hours before it, or to now if that is sooner.
      const opens = eventDate.getTime() - 60 * dayMs;
      const closes = Math.min(eventDate.getTime() - 3 * 60 * minuteMs, now.getTime() - minuteMs);
      let seatsSold = 0;
      const rows = {
        bookings: [] as (typeof bookings.$inferInsert)[],
        items: [] as (typeof bookingItems.$inferInsert)[],
        tickets: [] as (typeof tickets.$inferInsert)[],
        history: [] as (typeof bookingHistory.$inferInsert)[],
        refunds: [] as (typeof refunds.$inferInsert)[],
        checkIns: [] as (typeof checkIns.$inferInsert)[],
      };
      for (let b = 0; b < count; b++) {
        // More sales near the day: the square of a uniform number leans towards the close.
        const paidAt = new Date(closes - (closes - opens) * rng.next() ** 2);
        paidAt.setUTCMilliseconds(0);
        const items = [{ type: types[0]!, quantity: rng.int(1, 4), refunded: 0 }];
        if (rng.chance(0.3)) items.push({ type: types[1]!, quantity: rng.int(1, 3), refunded: 0 });
        if (rng.chance(0.04) && seatsSold + 8 + 7 <= seats)
          items.splice(0, items.length, { type: types[2]!, quantity: 1, refunded: 0 });
        let taken = items.reduce((sum, item) => sum + item.quantity * item.type.seatsPerTicket, 0);
        if (seatsSold + taken > seats) {
          items.splice(0, items.length, { type: types[0]!, quantity: 1, refunded: 0 });
          taken = 1;
        }
        seatsSold += taken;
        const quantity = items.reduce((sum, item) => sum + item.quantity, 0);
        const amountPence = items.reduce((sum, item) => sum + item.quantity * item.type.pricePence, 0);
        const buyer = person(++people);
        const ref = rng.uuid();
        const booking = {
          bookingRef: ref,
          eventId,
          holderName: buyer.name,
          email: buyer.email,
          quantity,
          seats: taken,
          amountPence,
          refundedPence: 0,
          status: "paid",
          holdExpiresAt: new Date(paidAt.getTime() + 10 * minuteMs),
          provider: "offline",
          providerPaymentId: `generated_${ref}`,
          createdAt: new Date(paidAt.getTime() - 2 * minuteMs),
          paidAt,
          updatedAt: paidAt,
        };
        const ticket = {
          ticketHolderName: buyer.name,
          email: buyer.email,
          eventId,
          bookingRef: ref,
          isValid: true,
          quantity: taken,
          dateSold: paidAt,
          checkedInCount: 0,
          checkedInAt: null as Date | null,
        };
        rows.history.push({ bookingRef: ref, status: "paid", note: "Generated sale", at: paidAt });
        result.bookings++;
        // Some refunds, a day or so after the sale: all of it, or one adult ticket of several. What
        // is written is how the booking stands after it, as the refund leaves it (refunds.server.ts).
        const refundAt = new Date(
          Math.min(paidAt.getTime() + rng.int(1, 72) * 60 * minuteMs, now.getTime() - minuteMs),
        );
        const adults = items.find((item) => item.type.name === "Adult");
        const refund = rng.chance(0.05) ? "all" : adults && adults.quantity >= 2 && rng.chance(0.06) ? "one" : null;
        if (refund) {
          const all = refund === "all";
          const refundPence = all ? amountPence : adults!.type.pricePence;
          rows.refunds.push({
            id: rng.uuid(),
            key: `generated:${ref}`,
            bookingRef: ref,
            quantity: all ? quantity : 1,
            ticketTypeId: all ? null : adults!.type.id,
            amountPence: refundPence,
            reason: "Can no longer come",
            status: "succeeded",
            staffEmail: "generated@example.org",
            createdAt: refundAt,
            completedAt: refundAt,
          });
          Object.assign(booking, {
            refundedPence: refundPence,
            status: all ? "refunded" : "paid",
            updatedAt: refundAt,
          });
          if (all) ticket.isValid = false;
          else ticket.quantity = taken - 1;
          for (const item of items) item.refunded = all ? item.quantity : item === adults ? 1 : 0;
          rows.history.push({
            bookingRef: ref,
            status: all ? "refunded" : "partly refunded",
            note: "Generated refund",
            at: refundAt,
          });
          if (all) result.refunded++;
          else result.partlyRefunded++;
        }
        const validSeats = ticket.isValid ? ticket.quantity : 0;
        if (validSeats > 0) paidBookings.push({ ref, paidAt, email: buyer.email, name: buyer.name, eventId });
        // Check-ins at the door of a past event: most come, from half an hour before the start.
        if (validSeats > 0 && eventDate.getTime() + 3 * 60 * minuteMs < now.getTime() && rng.chance(0.85)) {
          const scannedAt = new Date(
            eventDate.getTime() - 30 * minuteMs + Math.floor(90 * rng.next() ** 1.5) * minuteMs,
          );
          rows.checkIns.push({
            id: rng.uuid(),
            bookingRef: ref,
            eventId,
            count: validSeats,
            staffEmail: "door@example.org",
            device: "generated",
            scannedAt,
            recordedAt: scannedAt,
            outcome: "checked-in",
          });
          Object.assign(ticket, { checkedInCount: validSeats, checkedInAt: scannedAt });
          result.checkIns++;
        }
        rows.bookings.push(booking);
        rows.tickets.push(ticket);
        rows.items.push(
          ...items.map((item) => ({
            bookingRef: ref,
            ticketTypeId: item.type.id,
            quantity: item.quantity,
            pricePence: item.type.pricePence,
            seatsPerTicket: item.type.seatsPerTicket,
            refunded: item.refunded,
          })),
        );
      }
      // A few statements of many rows each, in the order the foreign keys need.
      for (const [table, list] of [
        [bookings, rows.bookings],
        [bookingItems, rows.items],
        [tickets, rows.tickets],
        [bookingHistory, rows.history],
        [refunds, rows.refunds],
        [checkIns, rows.checkIns],
      ] as const) {
        for (let i = 0; i < list.length; i += 500) await tx.insert(table).values(list.slice(i, i + 500) as never);
      }
    }

    // Gifts over the last year: one for every five bookings, a tenth of them added at checkout.
    const claimable: { id: string; amountPence: number; paidAt: Date }[] = [];
    const donationRows: (typeof donations.$inferInsert)[] = [];
    const declarationRows: (typeof giftAidDeclarations.$inferInsert)[] = [];
    const yearAgo = now.getTime() - 360 * dayMs;
    const used = new Set<string>();
    for (let g = 0; g < Math.ceil(options.bookings / 5); g++) {
      const atCheckout = rng.chance(0.1)
        ? paidBookings.find((booking) => !used.has(booking.ref) && rng.chance(0.2))
        : undefined;
      if (atCheckout) used.add(atCheckout.ref);
      const donor = atCheckout
        ? { first: atCheckout.name.split(" ")[0]!, last: atCheckout.name.split(" ")[1]!, ...atCheckout }
        : person(++people);
      const paidAt = atCheckout
        ? atCheckout.paidAt
        : new Date(yearAgo + (now.getTime() - minuteMs - yearAgo) * rng.next());
      paidAt.setUTCMilliseconds(0);
      const id = rng.uuid();
      const amountPence = rng.pick(giftAmounts);
      const refunded = rng.chance(0.04);
      donationRows.push({
        id,
        amountPence,
        donorName: atCheckout ? atCheckout.name : donor.name,
        email: donor.email,
        status: refunded ? "refunded" : "paid",
        provider: "offline",
        providerPaymentId: `generated_${id}`,
        createdAt: paidAt,
        paidAt,
        refundedAt: refunded ? new Date(Math.min(paidAt.getTime() + dayMs, now.getTime() - minuteMs)) : null,
        updatedAt: paidAt,
        bookingRef: atCheckout?.ref ?? null,
      });
      result.donations++;
      if (rng.chance(0.6)) {
        declarationRows.push({
          donationId: id,
          firstName: donor.first,
          surname: donor.last,
          houseNameOrNumber: String(rng.int(1, 120)),
          postcode: rng.pick(["HR8 1AB", "HR8 2DE", "WR13 6AA", "GL19 3BB"]),
          scope: "this-donation",
          wording,
          declaredAt: paidAt,
        });
        if (!refunded) claimable.push({ id, amountPence, paidAt });
      }
    }

    // Monthly gifts: a few donors, each paying on their day of every month since they started.
    for (let m = 0; m < Math.max(2, Math.ceil(options.bookings / 60)); m++) {
      const donor = person(++people);
      const id = rng.uuid();
      const startedAt = new Date(now.getTime() - rng.int(20, 330) * dayMs);
      const dayOfMonth = rng.int(1, 28);
      const amountPence = rng.pick([500, 1000, 1500, 2000]);
      await tx.insert(regularGifts).values({
        id,
        amountPence,
        dayOfMonth,
        donorName: donor.name,
        email: donor.email,
        status: "active",
        provider: "offline",
        providerSubscriptionId: `generated_${id}`,
        createdAt: startedAt,
        updatedAt: startedAt,
      });
      result.monthlyGifts++;
      const declared = rng.chance(0.5);
      let first = true;
      for (const month of monthsBetween(billingMonthOf(startedAt), billingMonthOf(now))) {
        // The first payment the day the donor gave; the others on their day, at noon.
        const paidAt = first ? startedAt : monthlyPaymentDate(month, dayOfMonth);
        if (paidAt >= now) break;
        const donationId = rng.uuid();
        donationRows.push({
          id: donationId,
          amountPence,
          donorName: donor.name,
          email: donor.email,
          status: "paid",
          provider: "offline",
          providerPaymentId: `generated_${donationId}`,
          createdAt: paidAt,
          paidAt,
          updatedAt: paidAt,
          regularGiftId: id,
          billingMonth: month,
        });
        result.donations++;
        if (first && declared) {
          declarationRows.push({
            donationId,
            firstName: donor.first,
            surname: donor.last,
            houseNameOrNumber: String(rng.int(1, 120)),
            postcode: "HR8 1AB",
            scope: "this-and-future",
            wording,
            declaredAt: paidAt,
          });
        }
        first = false;
      }
    }

    // One claim already made, for the declared one-off gifts paid before the last 60 days.
    const claimDay = new Date(now.getTime() - 30 * dayMs);
    const toClaim = claimable.filter((gift) => gift.paidAt.getTime() < now.getTime() - 60 * dayMs);
    if (toClaim.length > 0) {
      const claimId = rng.uuid();
      await tx.insert(giftAidClaims).values({
        id: claimId,
        claimedOn: londonDay(claimDay),
        donationCount: toClaim.length,
        totalPence: toClaim.reduce((sum, gift) => sum + gift.amountPence, 0),
        staffEmail: "generated@example.org",
        createdAt: claimDay,
      });
      const claimed = new Set(toClaim.map((gift) => gift.id));
      for (const row of donationRows) if (claimed.has(row.id)) row.giftAidClaimId = claimId;
      result.claimed = toClaim.length;
    }
    for (let i = 0; i < donationRows.length; i += 500)
      await tx.insert(donations).values(donationRows.slice(i, i + 500));
    for (let i = 0; i < declarationRows.length; i += 500)
      await tx.insert(giftAidDeclarations).values(declarationRows.slice(i, i + 500));
  });
  return result;
}

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isInteger(value) || value < 1 || value > 5000)
    throw new Error(`--${name} takes a whole number from 1 to 5000.`);
  return value;
}

async function main(args: string[]): Promise<number> {
  const options = {
    events: option(args, "events", 3),
    bookings: option(args, "bookings", 300),
    seed: option(args, "seed", Math.floor(Math.random() * 1_000_000) + 1),
  };
  const config = getConfig();
  const refused = refusal(config, args.includes("--yes-this-is-a-test-site"));
  if (refused) {
    console.error(refused);
    return 1;
  }
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    const made = await generateBookings(database.db, systemClock.now(), options);
    console.log(
      `Generated ${made.eventIds.length} events, ${made.bookings} paid bookings (${made.refunded} refunded, ${made.partlyRefunded} partly), ` +
        `${made.checkIns} check-ins, ${made.donations} donations (${made.monthlyGifts} monthly gifts), ${made.claimed} in a Gift Aid claim. Seed ${options.seed}.`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: Error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
