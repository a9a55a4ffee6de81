import { and, asc, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Queryable } from "~/infra/db/database.server";
import { countedHolds, seatsOf, takenByType } from "~/infra/db/seats.server";
import { rulesOf, typesOfEvent } from "~/infra/db/ticket-types.server";
import { recordAudit } from "~/infra/audit/audit.server";
import { AppError } from "~/lib/errors";
import { isUuid } from "~/lib/ids";
import { parsePence } from "~/lib/money";
import { londonDay } from "~/lib/london-time";
import { londonMidnight, shiftDay } from "~/lib/london-week";
import { typeAvailabilityWords, typeOnSale, typeStanding } from "~/lib/ticket-types";
import { bookings, events, promoCodes, ticketTypes } from "~db/schema";
import { maxTickets } from "./pricing";
import {
  applyPromo,
  codePattern,
  covers,
  discountWords,
  lastMomentOf,
  normaliseCode,
  promoMessages,
  type CodeSummary,
  type PromoKind,
  type PromoTerms,
} from "./promo-pricing";

// Promo codes (decision 084): what the checkout asks of a code under the event's lock, what the
// booking page shows of one applied, and the staff pages' list, new code and switch.

export type PromoCodeRow = typeof promoCodes.$inferSelect;

/** The field a code's message is answered under, on the booking page and from POST /api/bookings. */
export const promoField = "promoCode";

const refuse = (message: string, code: "invalid" | "conflict" = "invalid") =>
  new AppError(code, message, { fields: { [promoField]: message } });

export function termsOf(row: PromoCodeRow): PromoTerms {
  return {
    kind: row.kind,
    percentOff: row.percentOff,
    amountOffPence: row.amountOffPence,
    ticketTypeIds: row.ticketTypeIds,
  };
}

/**
 * Each code's uses: the bookings that count (decision 084), as seats are counted (decision 030): a
 * hold while it and its settling window last, a paid booking, one waiting for its refund. A hold
 * that ran out, failed or was given back, and a booking refunded, give their use back. And the
 * money each gave away: the discounts of its paid bookings (and those waiting for a refund).
 */
async function usesOf(db: Queryable, codeIds: string[], now: Date) {
  if (codeIds.length === 0) return new Map<string, { uses: number; givenPence: number }>();
  const rows = await db
    .select({
      id: bookings.promoCodeId,
      uses: sql<number>`count(*) filter (where ${or(inArray(bookings.status, ["paid", "refund_pending"]), countedHolds(now))})::int`,
      givenPence: sql<number>`coalesce(sum(${bookings.discountPence}) filter (where ${inArray(bookings.status, ["paid", "refund_pending"])}), 0)::int`,
    })
    .from(bookings)
    .where(inArray(bookings.promoCodeId, codeIds))
    .groupBy(bookings.promoCodeId);
  return new Map(rows.map((row) => [row.id!, { uses: Number(row.uses), givenPence: Number(row.givenPence) }]));
}

/** Why a code cannot be used for this event at `now` with `uses` counted; undefined when it can. */
function codeRefusal(row: PromoCodeRow | undefined, uses: number, eventId: string, now: Date): AppError | undefined {
  if (!row) return refuse(promoMessages.unknown);
  if (row.eventId !== null && row.eventId !== eventId) return refuse(promoMessages.otherEvent);
  if (row.disabledAt) return refuse(promoMessages.disabled);
  if (row.validUntil && row.validUntil <= now) return refuse(promoMessages.expired);
  if (row.maxUses !== null && uses >= row.maxUses) return refuse(promoMessages.usedUp, "conflict");
  return undefined;
}

/** The text a buyer sent as a code, kept as codes are; "" when none. */
function typedCode(typed: unknown): string {
  return typeof typed === "string" ? normaliseCode(typed.slice(0, 60)) : "";
}

/** A code as the checkout holds it: its row, its terms and the hidden types it reveals. */
export interface CheckoutPromo {
  row: PromoCodeRow;
  terms: PromoTerms;
  reveals: ReadonlySet<string>;
}

/**
 * The code a checkout uses, judged under locks (decision 084): called inside startBooking's
 * transaction after the event's row is locked, it locks the code's row (always after the event's,
 * so every checkout takes its locks in the same order), then counts its uses in a statement of its
 * own (read committed: a statement that waited for the lock must not count as of before it), so
 * two checkouts can never take the last use. Null when no code was given.
 */
export async function lockPromoCode(
  tx: Queryable,
  typed: unknown,
  eventId: string,
  now: Date,
): Promise<CheckoutPromo | null> {
  const code = typedCode(typed);
  if (code === "") return null;
  const [row] = await tx.select().from(promoCodes).where(eq(promoCodes.code, code)).for("update");
  const uses = row ? ((await usesOf(tx, [row.id], now)).get(row.id)?.uses ?? 0) : 0;
  const refusal = codeRefusal(row, uses, eventId, now);
  if (refusal) throw refusal;
  return { row: row!, terms: termsOf(row!), reveals: new Set(row!.ticketTypeIds) };
}

/**
 * Whether a booking's code still has a use for it when its payment settles after its hold lapsed
 * (settlement's `stillFits`, decision 084): the code's row locked as the checkout locks it (after
 * the event's), its uses counted in a statement of their own, the booking's own not among them (its
 * hold no longer counts). A code switched off or expired since does not refuse it: the buyer used it
 * while it was valid. True for a booking with no code.
 */
export async function codeStillFits(tx: Queryable, booking: { promoCodeId: string | null }, now: Date) {
  if (!booking.promoCodeId) return true;
  const [row] = await tx
    .select({ maxUses: promoCodes.maxUses })
    .from(promoCodes)
    .where(eq(promoCodes.id, booking.promoCodeId))
    .for("update");
  if (!row || row.maxUses === null) return true;
  const uses = (await usesOf(tx, [booking.promoCodeId], now)).get(booking.promoCodeId)?.uses ?? 0;
  return uses < row.maxUses;
}

/** A booking's code and what it took off, for its receipt; null when it used none. */
export async function promoOfBooking(
  db: Queryable,
  booking: { promoCodeId: string | null; discountPence: number },
): Promise<{ code: string; discountPence: number } | null> {
  if (!booking.promoCodeId) return null;
  const [row] = await db
    .select({ code: promoCodes.code })
    .from(promoCodes)
    .where(eq(promoCodes.id, booking.promoCodeId));
  return row ? { code: row.code, discountPence: booking.discountPence } : null;
}

/**
 * The discount on the tickets chosen: each item's price with the code applied (what
 * `booking_items.price_pence` keeps and refunds give back), and the booking's columns. A code that
 * covers none of them is refused, so a booking never records a code it did not use.
 */
export function promoDiscount(
  promo: CheckoutPromo | null,
  items: { type: { id: string; pricePence: number }; quantity: number }[],
) {
  const applied = applyPromo(
    promo?.terms,
    items.map((item) => ({ typeId: item.type.id, pricePence: item.type.pricePence, quantity: item.quantity })),
  );
  if (promo && !applied.applies) throw refuse(promoMessages.noTickets);
  const prices = new Map(applied.items.map((item) => [item.typeId, item.pricePence]));
  return {
    priceOf: (item: { type: { id: string; pricePence: number } }) => prices.get(item.type.id) ?? item.type.pricePence,
    columns: promo ? { promoCodeId: promo.row.id, discountPence: applied.discountPence } : {},
  };
}

/** A ticket type as the booking page offers it (BookableType). */
export interface PromoPageType {
  id: string;
  name: string;
  pricePence: number;
  onSale: boolean;
  left: number;
  words: string | null;
}

/** A code applied on the booking page: what the overview prices by, and the types it reveals. */
export interface PagePromo {
  code: string;
  words: string;
  terms: PromoTerms;
  /** The event's one visible type, for a page that asks one quantity; null when it sells by type. */
  oneTypeId: string | null;
  /** Every type the page offers with the code (the visible ones and those it reveals), when it reveals any. */
  types: PromoPageType[] | null;
}

/**
 * `?code=` on the booking page: the code applied, or why it cannot be. Read without a lock (the
 * checkout judges it again under its locks when the buyer pays).
 */
export async function promoForPage(
  db: Queryable,
  eventId: string,
  typed: string | null,
  now: Date,
): Promise<{ code: string; applied: PagePromo | null; error: string | null }> {
  const code = typedCode(typed ?? "");
  if (code === "") return { code: "", applied: null, error: null };
  const [row] = await db.select().from(promoCodes).where(eq(promoCodes.code, code));
  const uses = row ? ((await usesOf(db, [row.id], now)).get(row.id)?.uses ?? 0) : 0;
  const refusal = codeRefusal(row, uses, eventId, now);
  if (refusal || !row) return { code, applied: null, error: refusal?.message ?? promoMessages.unknown };
  const terms = termsOf(row);
  const typeRows = await typesOfEvent(db, eventId);
  const visible = typeRows.filter((type) => !type.hidden && !type.offSaleAt);
  const offered = typeRows.filter((type) => !type.offSaleAt && (!type.hidden || row.ticketTypeIds.includes(type.id)));
  if (!offered.some((type) => covers(terms, type.id))) {
    return { code, applied: null, error: promoMessages.noTickets };
  }
  const revealed = offered.length > visible.length;
  let types: PromoPageType[] | null = null;
  if (revealed) {
    const [seats, taken] = await Promise.all([seatsOf(db, eventId, now), takenByType(db, eventId, now)]);
    const seatsLeft = seats.total - seats.sold - seats.held;
    types = offered.map((row) => {
      const rules = rulesOf(row);
      const standing = typeStanding(rules, taken.get(row.id) ?? { sold: 0, held: 0 }, seatsLeft, now);
      const onSale = typeOnSale(rules, standing, maxTickets);
      return {
        id: row.id,
        name: row.name,
        pricePence: row.pricePence,
        onSale: standing.status === "on-sale",
        left: onSale.maxNow,
        words: typeAvailabilityWords(onSale),
      };
    });
  }
  return {
    code,
    error: null,
    applied: {
      code,
      words: discountWords(terms),
      terms,
      oneTypeId: !revealed && visible.length === 1 ? visible[0]!.id : null,
      types,
    },
  };
}

// Staff: the list, a new code, one code's page and its switch.

async function summaries(db: Queryable, rows: PromoCodeRow[], now: Date): Promise<CodeSummary[]> {
  const ids = rows.map((row) => row.id);
  const eventIds = [...new Set(rows.flatMap((row) => (row.eventId ? [row.eventId] : [])))];
  const typeIds = [...new Set(rows.flatMap((row) => row.ticketTypeIds))];
  const [uses, eventRows, typeRows] = await Promise.all([
    usesOf(db, ids, now),
    eventIds.length
      ? db.select({ id: events.id, name: events.name }).from(events).where(inArray(events.id, eventIds))
      : [],
    typeIds.length
      ? db
          .select({ id: ticketTypes.id, name: ticketTypes.name })
          .from(ticketTypes)
          .where(inArray(ticketTypes.id, typeIds))
      : [],
  ]);
  const eventNames = new Map(eventRows.map((row) => [row.id, row.name]));
  const typeNames = new Map(typeRows.map((row) => [row.id, row.name]));
  return rows.map((row) => ({
    id: row.id,
    code: row.code,
    eventId: row.eventId,
    eventName: row.eventId ? (eventNames.get(row.eventId) ?? null) : null,
    discount: discountWords(row),
    ticketTypes: row.ticketTypeIds.flatMap((id) => (typeNames.has(id) ? [typeNames.get(id)!] : [])),
    maxUses: row.maxUses,
    validUntil: row.validUntil?.toISOString() ?? null,
    off: row.disabledAt !== null,
    uses: uses.get(row.id)?.uses ?? 0,
    givenPence: uses.get(row.id)?.givenPence ?? 0,
    createdBy: row.createdByEmail,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** Every code, newest first, with its uses and the money it gave away. */
export async function listPromoCodes(db: Queryable, now: Date): Promise<CodeSummary[]> {
  const rows = await db.select().from(promoCodes).orderBy(desc(promoCodes.createdAt), asc(promoCodes.code));
  return summaries(db, rows, now);
}

/** One code with the bookings that used it; undefined when there is none. */
export async function promoCodeDetail(db: Queryable, id: string, now: Date) {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(promoCodes).where(eq(promoCodes.id, id));
  if (!row) return undefined;
  const [summary] = await summaries(db, [row], now);
  const used = await db
    .select({
      bookingRef: bookings.bookingRef,
      status: bookings.status,
      quantity: bookings.quantity,
      amountPence: bookings.amountPence,
      discountPence: bookings.discountPence,
      createdAt: bookings.createdAt,
      eventName: events.name,
    })
    .from(bookings)
    .innerJoin(events, eq(events.id, bookings.eventId))
    .where(
      and(eq(bookings.promoCodeId, row.id), inArray(bookings.status, ["held", "paid", "refund_pending", "refunded"])),
    )
    .orderBy(desc(bookings.createdAt))
    .limit(200);
  return {
    code: summary!,
    bookings: used.map((booking) => ({ ...booking, createdAt: booking.createdAt.toISOString() })),
  };
}

/** What the new code form offers: events still on sale, each with its types. */
export async function codeFormChoices(db: Queryable, now: Date) {
  const rows = await db
    .select({ id: events.id, name: events.name, eventDate: events.eventDate })
    .from(events)
    .where(and(isNull(events.cancelledAt), sql`${events.ticketSaleExpiry} > ${now}`))
    .orderBy(asc(events.eventDate));
  const types = rows.length
    ? await db
        .select({
          id: ticketTypes.id,
          eventId: ticketTypes.eventId,
          name: ticketTypes.name,
          hidden: ticketTypes.hidden,
        })
        .from(ticketTypes)
        .where(
          inArray(
            ticketTypes.eventId,
            rows.map((row) => row.id),
          ),
        )
        .orderBy(asc(ticketTypes.position), asc(ticketTypes.createdAt))
    : [];
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    day: londonDay(row.eventDate),
    types: types.filter((type) => type.eventId === row.id).map(({ id, name, hidden }) => ({ id, name, hidden })),
  }));
}

export const codeFormMessages = {
  code: "Enter a code of 3 to 30 letters, digits, dashes or underscores.",
  taken: "There is already a code like this one: choose another.",
  event: "Choose all events or one event still on sale.",
  kind: "Choose a discount.",
  percent: "Enter the percentage off as a whole number from 1 to 100.",
  amount: "Enter the amount off each ticket in pounds, such as 5 or 2.50.",
  ticketTypes: "Choose only ticket types of the event chosen: a code for all events covers every type.",
  maxUses: "Enter the maximum uses as a whole number from 1, or leave it empty for no limit.",
  validUntil: "Enter the last day the code can be used, in the future, or leave it empty.",
  summary: "The code could not be made: correct the fields marked.",
} as const;

/** What the new code form sends. */
export interface CodeInput {
  code: string;
  eventId: string;
  kind: string;
  percentOff: string;
  amountOff: string;
  ticketTypeIds: string[];
  maxUses: string;
  validUntil: string;
}

/**
 * A code's two limits as the staff forms send them, a message in `errors` for each that is wrong:
 * the most bookings that may use it (empty: no limit), and the last day it works (the whole of that
 * day in London; empty: no end), which must not be over already.
 */
function codeLimits(input: { maxUses: string; validUntil: string }, now: Date, errors: Record<string, string>) {
  let maxUses: number | null = null;
  if (input.maxUses.trim() !== "") {
    maxUses = /^\d{1,6}$/.test(input.maxUses.trim()) ? Number(input.maxUses.trim()) : 0;
    if (maxUses < 1) errors.maxUses = codeFormMessages.maxUses;
  }
  let validUntil: Date | null = null;
  if (input.validUntil.trim() !== "") {
    const day = input.validUntil.trim();
    // A real calendar day only ("2026-02-30" and "9999-99-99" are not), then the whole of it in London.
    const noon = new Date(`${day}T12:00:00Z`);
    const real = /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(noon.getTime()) && noon.toISOString().startsWith(day);
    validUntil = real ? londonMidnight(shiftDay(day, 1)) : null;
    if (!validUntil || Number.isNaN(validUntil.getTime()) || validUntil <= now) {
      errors.validUntil = codeFormMessages.validUntil;
    }
  }
  return { maxUses, validUntil };
}

/** Words for a code's limits in the audit log: "at most 5 uses", "until the end of 2026-12-31". */
function limitWords(row: Pick<PromoCodeRow, "maxUses" | "validUntil">) {
  const uses =
    row.maxUses === null ? "no limit of uses" : `at most ${row.maxUses} ${row.maxUses === 1 ? "use" : "uses"}`;
  const until = row.validUntil ? `until the end of ${londonDay(lastMomentOf(row.validUntil))}` : "no end date";
  return `${uses}, ${until}`;
}

/** Makes a code from the staff form, checked field by field; the audit log says who made what. */
export async function createPromoCode(
  db: Queryable,
  staff: { id: string; email: string },
  input: CodeInput,
  now: Date,
): Promise<PromoCodeRow> {
  const errors: Record<string, string> = {};
  const code = normaliseCode(input.code);
  if (!codePattern.test(code)) errors.code = codeFormMessages.code;
  const choices = await codeFormChoices(db, now);
  const event = input.eventId === "" ? null : choices.find((choice) => choice.id === input.eventId);
  if (event === undefined) errors.eventId = codeFormMessages.event;
  const kind = (["percent", "fixed", "free"] as const).find((k) => k === input.kind) as PromoKind | undefined;
  if (!kind) errors.kind = codeFormMessages.kind;
  let percentOff: number | null = null;
  let amountOffPence: number | null = null;
  if (kind === "percent") {
    percentOff = /^\d{1,3}$/.test(input.percentOff.trim()) ? Number(input.percentOff.trim()) : NaN;
    if (!(percentOff >= 1 && percentOff <= 100)) errors.percentOff = codeFormMessages.percent;
  }
  if (kind === "fixed") {
    amountOffPence = parsePence(input.amountOff) ?? null;
    if (!amountOffPence || amountOffPence > 10_000_00) errors.amountOff = codeFormMessages.amount;
  }
  const typeIds = [...new Set(input.ticketTypeIds.filter((id) => id !== ""))];
  if (typeIds.length > 0 && (!event || typeIds.some((id) => !event.types.some((type) => type.id === id)))) {
    errors.ticketTypeIds = codeFormMessages.ticketTypes;
  }
  const { maxUses, validUntil } = codeLimits(input, now, errors);
  if (!errors.code) {
    const [clash] = await db.select({ id: promoCodes.id }).from(promoCodes).where(eq(promoCodes.code, code));
    if (clash) errors.code = codeFormMessages.taken;
  }
  if (Object.keys(errors).length > 0) throw new AppError("invalid", codeFormMessages.summary, { fields: errors });
  const values = {
    code,
    eventId: event?.id ?? null,
    kind: kind!,
    percentOff,
    amountOffPence,
    ticketTypeIds: typeIds,
    maxUses,
    validUntil,
    createdByEmail: staff.email,
    createdAt: now,
    updatedAt: now,
  };
  const row = await db.transaction(async (tx) => {
    const [made] = await tx.insert(promoCodes).values(values).onConflictDoNothing().returning();
    if (!made) throw new AppError("invalid", codeFormMessages.summary, { fields: { code: codeFormMessages.taken } });
    const types = typeIds.map((id) => event!.types.find((type) => type.id === id)!.name);
    await recordAudit(tx, {
      staff,
      action: "promo-code.created",
      subject: made.id,
      summary: [
        `Made the code ${code}: ${discountWords(made)}`,
        event ? `for “${event.name}”` : "for all events",
        types.length ? `on ${types.map((name) => `“${name}”`).join(", ")}` : null,
        maxUses !== null ? `at most ${maxUses} ${maxUses === 1 ? "use" : "uses"}` : null,
        validUntil ? `until the end of ${input.validUntil.trim()}` : null,
      ]
        .filter(Boolean)
        .join(", "),
      at: now,
    });
    return made;
  });
  return row;
}

/** Switches a code off (no new bookings may use it) or back on; the bookings made with it stand. */
export async function switchPromoCode(
  db: Queryable,
  staff: { id: string; email: string },
  id: string,
  off: boolean,
  now: Date,
): Promise<void> {
  if (!isUuid(id)) throw new AppError("not-found", "There is no such code.");
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(promoCodes).where(eq(promoCodes.id, id)).for("update");
    if (!row) throw new AppError("not-found", "There is no such code.");
    if ((row.disabledAt !== null) === off) return;
    await tx
      .update(promoCodes)
      .set({ disabledAt: off ? now : null, updatedAt: now })
      .where(eq(promoCodes.id, id));
    await recordAudit(tx, {
      staff,
      action: off ? "promo-code.switched-off" : "promo-code.switched-on",
      subject: id,
      summary: `${off ? "Switched off" : "Switched back on"} the code ${row.code}`,
      at: now,
    });
  });
}

export const codeLimitMessages = {
  belowUses: (uses: number) =>
    `This code has been used ${uses} ${uses === 1 ? "time" : "times"}: enter at least ${uses}, or leave it empty for no limit.`,
  summary: "The limits could not be changed: correct the fields marked.",
  saved: "The code's limits are changed.",
} as const;

/**
 * Changes a code's maximum uses and last day (decision 097): the two limits staff change once a
 * code is out, when it proves popular or the offer is extended. Its discount, event and types stay
 * as made, so that what each booking paid and the money it gave away keep one meaning; a different
 * offer is a new code. The code's row is locked as a checkout locks it, and its uses counted after,
 * so the maximum is never set below the uses it already has, including holds still being paid.
 */
export async function changePromoCodeLimits(
  db: Queryable,
  staff: { id: string; email: string },
  id: string,
  input: { maxUses: string; validUntil: string },
  now: Date,
): Promise<void> {
  if (!isUuid(id)) throw new AppError("not-found", "There is no such code.");
  const errors: Record<string, string> = {};
  const limits = codeLimits(input, now, errors);
  if (Object.keys(errors).length > 0) throw new AppError("invalid", codeLimitMessages.summary, { fields: errors });
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(promoCodes).where(eq(promoCodes.id, id)).for("update");
    if (!row) throw new AppError("not-found", "There is no such code.");
    const uses = (await usesOf(tx, [row.id], now)).get(row.id)?.uses ?? 0;
    if (limits.maxUses !== null && limits.maxUses < uses) {
      const message = codeLimitMessages.belowUses(uses);
      throw new AppError("invalid", codeLimitMessages.summary, { fields: { maxUses: message } });
    }
    const was = limitWords(row);
    const becomes = limitWords(limits);
    if (was === becomes) return;
    await tx
      .update(promoCodes)
      .set({ maxUses: limits.maxUses, validUntil: limits.validUntil, updatedAt: now })
      .where(eq(promoCodes.id, id));
    await recordAudit(tx, {
      staff,
      action: "promo-code.changed",
      subject: id,
      summary: `Changed the limits of the code ${row.code}: ${becomes} (were ${was})`,
      at: now,
    });
  });
}
