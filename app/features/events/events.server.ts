import { recordAudit } from "~/infra/audit/audit.server";
import { asc, eq, sql } from "drizzle-orm";
import type { Database, Queryable } from "~/infra/db/database.server";
import { nextHoldExpiry, seatsByEvent, seatsOf } from "~/infra/db/seats.server";
import type { PictureLibrary } from "~/infra/images/uploads.server";
import { announceChange } from "~/infra/live/changes.server";
import type { Clock } from "~/lib/clock";
import { AppError, type FieldErrors } from "~/lib/errors";
import { isUuid } from "~/lib/ids";
import { events } from "~db/schema";
import type { Availability, EventChanges, EventView, NewEvent } from "./schema";
import { availabilityOf } from "./status";
import { planTicketTypes } from "./ticket-types.server";
import { planQuestions } from "./questions.server";
import {
  nextSaleWindowEdge,
  syncEventPrice,
  visibleTypeStock,
  type VisibleTypeStock,
} from "~/infra/db/ticket-types.server";
import { lowestPriceOnSale } from "~/lib/ticket-types";

type EventRow = typeof events.$inferSelect;

export function toEventView(row: EventRow): EventView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    posterImage: row.posterImage,
    eventDate: row.eventDate.toISOString(),
    location: row.location,
    ticketCost: row.ticketCostPence === null ? null : row.ticketCostPence / 100,
    ticketCostPence: row.ticketCostPence,
    totalAvailableTickets: row.totalAvailableTickets,
    ticketSaleExpiry: row.ticketSaleExpiry.toISOString(),
    isTest: row.isTest,
    link: row.link,
    testimonial: row.testimonial ?? null,
    galleryImages: row.gallery,
    ...(row.cancelledAt && { cancelledAt: row.cancelledAt.toISOString() }),
    waitingListOfferHours: row.waitingListOfferHours,
    reminderHours: row.reminderHours,
    whatToBring: row.whatToBring,
  };
}

/** Every event, test events included (pages filter), ordered by event date, newest first. */
export async function listEvents({ db }: { db: Queryable }): Promise<EventView[]> {
  const rows = await db
    .select()
    .from(events)
    .orderBy(sql`${events.eventDate} desc`, asc(events.name));
  return rows.map(toEventView);
}

export async function findEvent({ db }: { db: Queryable }, id: string): Promise<EventView | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(events).where(eq(events.id, id));
  return row ? toEventView(row) : undefined;
}

/**
 * What is wrong with the pictures an event's fields name ("" names none): each must be a source
 * under content/images or a picture staff uploaded, so no page ever shows a broken image.
 */
async function pictureProblems(
  db: Queryable,
  pictures: PictureLibrary,
  fields: Pick<EventChanges, "posterImage" | "testimonial" | "galleryImages">,
): Promise<FieldErrors> {
  const named: [field: string, name: string][] = [
    ["posterImage", fields.posterImage ?? ""],
    ["testimonial.image", fields.testimonial?.image ?? ""],
    ...(fields.galleryImages ?? []).map((item, i): [string, string] => [`galleryImages.${i}.image`, item.image]),
  ];
  const wanted = named.filter(([, name]) => name !== "");
  const missing = new Set(
    await pictures.missing(
      db,
      wanted.map(([, name]) => name),
    ),
  );
  return Object.fromEntries(
    wanted
      .filter(([, name]) => missing.has(name))
      .map(([field, name]) => [field, `must name a picture on this site: there is none called ${name}`]),
  );
}

/** The member of staff making a change, for the audit log; absent for the site's own sample events. */
export interface ChangedBy {
  staff: { id: string; email: string };
  /** The event this one is a copy of (Duplicate). */
  duplicateOf?: string;
}

export async function createEvent(
  db: Queryable,
  input: NewEvent,
  now: Date,
  pictures: PictureLibrary,
  by?: ChangedBy,
): Promise<EventView> {
  const prices = await planTicketTypes(db, undefined, input, now);
  const asked = await planQuestions(db, undefined, input.questions, now);
  const problems = { ...(await pictureProblems(db, pictures, input)), ...prices.problems, ...asked.problems };
  if (Object.keys(problems).length > 0) {
    throw new AppError("invalid", "The event is not valid.", { fields: problems });
  }
  const [row] = await db
    .insert(events)
    .values({
      name: input.name,
      description: input.description,
      posterImage: input.posterImage,
      eventDate: new Date(input.eventDate),
      location: input.location,
      ticketCostPence: prices.ticketCostPence ?? null,
      totalAvailableTickets: input.totalAvailableTickets,
      ticketSaleExpiry: new Date(input.ticketSaleExpiry),
      isTest: input.isTest,
      link: input.link,
      testimonial: input.testimonial,
      gallery: input.galleryImages,
      waitingListOfferHours: input.waitingListOfferHours,
      reminderHours: input.reminderHours,
      whatToBring: input.whatToBring,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const types = await prices.apply(db, row!.id, now);
  const questions = await asked.apply(db, row!.id, now);
  await syncEventPrice(db, row!.id);
  if (by) {
    const made = by.duplicateOf ? `Copied event:${by.duplicateOf} as “${row!.name}”` : `Created “${row!.name}”`;
    const questionWords = questions.length > 0 ? `; questions: ${questions.join("; ")}` : "";
    await recordAudit(db, {
      staff: by.staff,
      action: by.duplicateOf ? "event.duplicated" : "event.created",
      subject: `event:${row!.id}`,
      summary: `${input.ticketTypes === undefined ? made : `${made}; ticket types: ${types.join("; ") || "none"}`}${questionWords}`,
      at: now,
    });
  }
  const [saved] = await db.select().from(events).where(eq(events.id, row!.id));
  return toEventView(saved!);
}

/** What storing a staff member's event needs: the database, the clock, and the pictures it may name. */
export interface EventStore {
  db: Database;
  clock: Clock;
  pictures: PictureLibrary;
}

/** A new event from staff (the staff API, Duplicate), audited and announced to every process in one transaction. */
export async function addEvent(
  { db, clock, pictures }: EventStore,
  input: NewEvent,
  by: ChangedBy,
): Promise<EventView> {
  return db.transaction(async (tx) => {
    const created = await createEvent(tx, input, clock.now(), pictures, by);
    await announceChange(tx, "events");
    return created;
  });
}

/** A staff member's changes to an event, audited and announced to every process; undefined when there is no such event. */
export async function changeEvent(
  { db, clock, pictures }: EventStore,
  id: string,
  changes: EventChanges,
  by: ChangedBy,
): Promise<EventView | undefined> {
  return db.transaction(async (tx) => {
    const updated = await updateEvent(tx, id, changes, clock.now(), pictures, by);
    if (updated) await announceChange(tx, "events");
    return updated;
  });
}

/** Applies a staff member's changes; undefined when there is no such event. */
export async function updateEvent(
  db: Queryable,
  id: string,
  changes: EventChanges,
  now: Date,
  pictures: PictureLibrary,
  by?: ChangedBy,
): Promise<EventView | undefined> {
  if (!isUuid(id)) return undefined;
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(events).where(eq(events.id, id)).for("update");
    if (!current) return undefined;
    const next = {
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.description !== undefined && { description: changes.description }),
      ...(changes.posterImage !== undefined && { posterImage: changes.posterImage }),
      ...(changes.eventDate !== undefined && { eventDate: new Date(changes.eventDate) }),
      ...(changes.location !== undefined && { location: changes.location }),
      ...(changes.totalAvailableTickets !== undefined && { totalAvailableTickets: changes.totalAvailableTickets }),
      ...(changes.ticketSaleExpiry !== undefined && { ticketSaleExpiry: new Date(changes.ticketSaleExpiry) }),
      ...(changes.isTest !== undefined && { isTest: changes.isTest }),
      ...(changes.link !== undefined && { link: changes.link }),
      ...(changes.testimonial !== undefined && { testimonial: changes.testimonial }),
      ...(changes.galleryImages !== undefined && { gallery: changes.galleryImages }),
      ...(changes.waitingListOfferHours !== undefined && { waitingListOfferHours: changes.waitingListOfferHours }),
      ...(changes.reminderHours !== undefined && { reminderHours: changes.reminderHours }),
      ...(changes.whatToBring !== undefined && { whatToBring: changes.whatToBring }),
    };
    // Every problem at once, so a form can mark each field.
    const prices = await planTicketTypes(tx, current, changes, now);
    const asked = await planQuestions(tx, id, changes.questions, now);
    const problems = { ...(await pictureProblems(tx, pictures, changes)), ...prices.problems, ...asked.problems };
    const eventDate = next.eventDate ?? current.eventDate;
    const expiry = next.ticketSaleExpiry ?? current.ticketSaleExpiry;
    if (expiry > eventDate) problems.ticketSaleExpiry = "must not be after eventDate";
    // Never fewer seats than are already sold (the event row is locked, so no sale slips in between).
    if (next.totalAvailableTickets !== undefined && next.totalAvailableTickets < current.totalAvailableTickets) {
      const { sold } = await seatsOf(tx, id, now);
      if (next.totalAvailableTickets < sold) {
        problems.totalAvailableTickets = `must be at least ${sold}: ${sold} ${sold === 1 ? "ticket is" : "tickets are"} already sold`;
      }
    }
    if (Object.keys(problems).length > 0) {
      throw new AppError("invalid", "The changes are not valid.", { fields: problems });
    }
    await tx
      .update(events)
      .set({
        ...next,
        ...(prices.ticketCostPence !== undefined && { ticketCostPence: prices.ticketCostPence }),
        updatedAt: now,
      })
      .where(eq(events.id, id));
    const types = await prices.apply(tx, id, now);
    const questions = await asked.apply(tx, id, now);
    await syncEventPrice(tx, id);
    const [row] = await tx.select().from(events).where(eq(events.id, id));
    if (by) {
      const fields = Object.keys(changes).join(", ") || "nothing";
      const questionWords = questions.length > 0 ? `; questions: ${questions.join("; ")}` : "";
      await recordAudit(tx, {
        staff: by.staff,
        action: "event.changed",
        subject: `event:${id}`,
        summary: `Changed “${row!.name}”: ${fields}${types.length > 0 ? `; ticket types: ${types.join("; ")}` : ""}${questionWords}`,
        at: now,
      });
    }
    return toEventView(row!);
  });
}

/**
 * Tickets sold and left for every event, by event id. Sold counts ticket quantities, not records,
 * and only valid tickets; seats held by unfinished checkouts are not sold but are not left either,
 * until their hold runs out at `now`. Each event's types a visitor may see are read at the same
 * `now`: what is left of each, and whether any can be bought (availabilityOf).
 */
export async function availabilityByEvent({ db }: { db: Queryable }, now: Date): Promise<Record<string, Availability>> {
  return availabilityOfStock(await stockByEvent(db, now));
}

/** Every event's seats and the standing of its visible types, at one `now`. */
async function stockByEvent(db: Queryable, now: Date) {
  const seats = seatsByEvent(db, now);
  const types = await visibleTypeStock(db, now, seats);
  return { seats: await seats, types };
}

type Stock = Awaited<ReturnType<typeof stockByEvent>>;

function availabilityOfStock({ seats, types }: Stock): Record<string, Availability> {
  return Object.fromEntries(
    Object.entries(seats).map(([id, { total, sold, held, heldUntil }]) => [
      id,
      availabilityOf(total, sold, held, heldUntil, types[id] ?? []),
    ]),
  );
}

/**
 * An event as visitors are shown it: its `ticketCost` is the lowest price of its types on sale now
 * (decision 078), or the stored price when none is; an event not sold on this site keeps null.
 */
function priceOnSale(event: EventView, types: VisibleTypeStock[] | undefined): EventView {
  if (event.ticketCostPence === null) return event;
  const lowest = lowestPriceOnSale((types ?? []).map((type) => type.onSale));
  return lowest === null || lowest === event.ticketCostPence
    ? event
    : { ...event, ticketCostPence: lowest, ticketCost: lowest / 100 };
}

/** Every event as the public pages show it (priced by its types on sale), with every event's availability. */
export async function eventsForVisitors(
  { db }: { db: Queryable },
  now: Date,
): Promise<{ events: EventView[]; availability: Record<string, Availability> }> {
  const [events, stock] = await Promise.all([listEvents({ db }), stockByEvent(db, now)]);
  return {
    events: events.map((event) => priceOnSale(event, stock.types[event.id])),
    availability: availabilityOfStock(stock),
  };
}

/** One event as its public pages show it, with its availability; undefined when there is no such event. */
export async function eventForVisitors(
  { db }: { db: Queryable },
  id: string,
  now: Date,
): Promise<{ event: EventView; availability: Availability } | undefined> {
  const event = await findEvent({ db }, id);
  if (!event) return undefined;
  const stock = await stockByEvent(db, now);
  return { event: priceOnSale(event, stock.types[event.id]), availability: availabilityOfStock(stock)[event.id]! };
}

/**
 * The next moment the live counts change by the clock alone, with nothing announced: a hold stops
 * counting (`nextHoldExpiry`), or a ticket type's sale opens or ends (`nextSaleWindowEdge`): an
 * early-bird price ending, a type going on sale. Null when none is ahead.
 */
export async function nextAvailabilityChange(db: Queryable, now: Date): Promise<Date | null> {
  const [hold, window] = await Promise.all([nextHoldExpiry(db, now), nextSaleWindowEdge(db, now)]);
  return earliest([hold, window]);
}

function earliest(times: (Date | string | null | undefined)[]): Date | null {
  const ms = times.filter((at) => at !== null && at !== undefined).map((at) => new Date(at as string | Date).getTime());
  return ms.length > 0 ? new Date(Math.min(...ms)) : null;
}

/**
 * The next moment the public pages' events or counts change by the clock alone, with nothing
 * announced: an event's ticket sales close (it leaves the current list, Book goes), an event takes
 * place (Add to calendar goes), or the live counts change (`nextAvailabilityChange`: a hold stops
 * counting, a type's sale opens or ends). Null when none is ahead. The page cache keeps a live page
 * no longer than this (server/page-cache.ts).
 */
export async function nextTimedChange(db: Queryable, now: Date): Promise<Date | null> {
  const [[row], counts] = await Promise.all([
    db
      .select({
        sales: sql<string | null>`min(${events.ticketSaleExpiry}) filter (where ${events.ticketSaleExpiry} > ${now})`,
        dates: sql<string | null>`min(${events.eventDate}) filter (where ${events.eventDate} > ${now})`,
      })
      .from(events),
    nextAvailabilityChange(db, now),
  ]);
  return earliest([row?.sales, row?.dates, counts]);
}
