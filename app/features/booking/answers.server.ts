import { eq } from "drizzle-orm";
import type { Database, Queryable } from "~/infra/db/database.server";
import { questionsToAsk } from "~/infra/db/questions.server";
import { AppError } from "~/lib/errors";
import { isUuid } from "~/lib/ids";
import { answersSummary, checkAnswers, type AnswerRow } from "~/lib/questions";
import { bookingAnswers, bookings } from "~db/schema";
import { bookingMessages, ticketChoice, validateTicketInformation } from "./schema";

// A booking's answers to its event's questions (decision 083): checked before anything is held,
// stored in the same statement as the booking. startBooking calls the two functions below.

/** The answers checked, for this many attendees (the seats the booking's tickets take). */
export interface CheckedAnswers {
  rows: AnswerRow[];
  /** The attendees the per-attendee answers were checked for; null when nothing is asked per attendee. */
  attendees: number | null;
}

const noAnswers: CheckedAnswers = { rows: [], attendees: null };

/**
 * Reads the event's questions and checks the answers given (`{<question id>: "…" | ["…", …]}`,
 * a list, one per attendee, for a per-attendee question) for the attendees the tickets asked for
 * take. Refuses, with every field's message (the buyer's and the tickets' too, so the form marks
 * them all at once), before anything is held. An event that asks nothing takes no answers.
 */
export async function checkBookingAnswers(
  db: Queryable,
  input: { eventId: string; name?: unknown; email?: unknown; quantity?: unknown; tickets?: unknown; answers?: unknown },
): Promise<CheckedAnswers> {
  if (!isUuid(input.eventId)) return noAnswers;
  const { questions, seatsByType, oneTypeSeats } = await questionsToAsk(db, input.eventId);
  if (questions.length === 0 && (input.answers === undefined || input.answers === null)) return noAnswers;
  const choice = ticketChoice(input);
  const perAttendee = questions.some((question) => question.perAttendee);
  const attendees = !perAttendee ? 0 : choice.ok ? attendeesOf(choice, seatsByType, oneTypeSeats) : undefined;
  // Tickets not yet known (refused, or of a type not the event's): the per-attendee answers wait for them.
  const asked = attendees === undefined ? questions.filter((question) => !question.perAttendee) : questions;
  const waiting = new Set(questions.filter((question) => !asked.includes(question)).map((question) => question.id));
  const given =
    waiting.size > 0 && typeof input.answers === "object" && input.answers !== null && !Array.isArray(input.answers)
      ? Object.fromEntries(Object.entries(input.answers).filter(([id]) => !waiting.has(id)))
      : input.answers;
  const checked = checkAnswers(asked, given, attendees ?? 0);
  if (checked.ok) return { rows: checked.rows, attendees: perAttendee && attendees !== undefined ? attendees : null };
  const ticket = validateTicketInformation({ ...input, quantity: choice.ok ? choice.total : input.quantity });
  const others = { ...(ticket.ok ? {} : ticket.errors), ...(choice.ok ? {} : choice.errors) };
  throw new AppError("invalid", Object.keys(others).length > 0 ? bookingMessages.summary : answersSummary, {
    fields: { ...others, ...checked.errors },
  });
}

/** The seats the tickets asked for take; undefined when a type asked for is not the event's (the checkout refuses it). */
function attendeesOf(
  choice: { byType: Map<string, number> | null; total: number },
  seatsByType: Record<string, number>,
  oneTypeSeats: number,
) {
  // Without types, tickets of the event's one visible type (the checkout finds it).
  if (!choice.byType) return choice.total * oneTypeSeats;
  let attendees = 0;
  for (const [typeId, quantity] of choice.byType) {
    const seats = seatsByType[typeId];
    if (seats === undefined) return undefined;
    attendees += quantity * seats;
  }
  return attendees;
}

/**
 * The answers' insert, for startBooking's one statement with the booking; none when there are no
 * answers. Refuses when the seats held are not the attendees answered for (a type's size changed
 * between the check and the hold), so no attendee is left unasked.
 */
export function answersInsert(tx: Queryable, bookingRef: string, answers: CheckedAnswers, seats: number) {
  if (answers.attendees !== null && answers.attendees !== seats) {
    throw new AppError("conflict", "The tickets changed while you were booking: please reload the page and try again.");
  }
  if (answers.rows.length === 0) return [];
  return [tx.insert(bookingAnswers).values(answers.rows.map((row) => ({ ...row, bookingRef })))];
}

/**
 * The answers of a booking already held, given when it is paid for: a waiting-list offer's
 * (decision 086), whose hold was made before anyone was asked. They replace those it had, under
 * the booking's row lock and only while it is still held (a booking paid keeps what it was paid with).
 */
export async function answersOfHeldBooking(db: Database, bookingRef: string, answers: CheckedAnswers, seats: number) {
  await db.transaction(async (tx) => {
    const [held] = await tx
      .select({ status: bookings.status })
      .from(bookings)
      .where(eq(bookings.bookingRef, bookingRef))
      .for("update");
    if (held?.status !== "held") return;
    const insert = answersInsert(tx, bookingRef, answers, seats);
    await tx.delete(bookingAnswers).where(eq(bookingAnswers.bookingRef, bookingRef));
    for (const statement of insert) await statement;
  });
}
