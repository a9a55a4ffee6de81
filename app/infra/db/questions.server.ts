import { and, asc, eq, inArray, isNull, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { AskedQuestion, ShownAnswer } from "~/lib/questions";
import { bookingAnswers, eventQuestions, ticketTypes } from "~db/schema";
import { selectBuiltOnce, slot } from "./built-once.server";
import type { Queryable } from "./database.server";

// An event's questions and its bookings' answers as stored (decision 083). The rules are
// app/lib/questions.ts.

export type QuestionRow = typeof eventQuestions.$inferSelect;

const inOrder = [asc(eventQuestions.position), asc(eventQuestions.createdAt), asc(eventQuestions.id)];

/** Every question of an event, those no longer asked too, in the order staff set. */
export async function questionsOfEvent(db: Queryable, eventId: string): Promise<QuestionRow[]> {
  return db
    .select()
    .from(eventQuestions)
    .where(eq(eventQuestions.eventId, eventId))
    .orderBy(...inOrder);
}

export function askedOf(row: QuestionRow): AskedQuestion {
  return {
    id: row.id,
    question: row.question,
    answerType: row.answerType,
    choices: row.choices,
    required: row.required,
    perAttendee: row.perAttendee,
  };
}

/** What a booking of this event is asked, and how its attendees are counted (the seats its tickets take). */
export interface QuestionsToAsk {
  questions: AskedQuestion[];
  /** The seats a ticket of each type takes, by type id (only when something is asked per attendee). */
  seatsByType: Record<string, number>;
  /** The seats a ticket takes when the booking asks a quantity of the event's one visible type. */
  oneTypeSeats: number;
}

/**
 * What a booking of this event is asked (questions still asked, in order), with the seats each of
 * its ticket types takes, for counting attendees. One query when the event asks nothing per attendee.
 */
/** An event's questions still asked, in order: read by every checkout, so built once (decision 099). */
const questionsAskedReading = selectBuiltOnce((db: Queryable) =>
  db
    .select()
    .from(eventQuestions)
    .where(and(eq(eventQuestions.eventId, slot("eventId")), isNull(eventQuestions.removedAt)))
    .orderBy(...inOrder),
);

export async function questionsToAsk(db: Queryable, eventId: string): Promise<QuestionsToAsk> {
  const rows = await questionsAskedReading(db, { eventId });
  const questions = rows.map(askedOf);
  if (!questions.some((question) => question.perAttendee)) return { questions, seatsByType: {}, oneTypeSeats: 1 };
  const types = await db
    .select({
      id: ticketTypes.id,
      seats: ticketTypes.seatsPerTicket,
      hidden: ticketTypes.hidden,
      offSaleAt: ticketTypes.offSaleAt,
    })
    .from(ticketTypes)
    .where(eq(ticketTypes.eventId, eventId));
  const visible = types.filter((type) => !type.hidden && !type.offSaleAt);
  return {
    questions,
    seatsByType: Object.fromEntries(types.map((type) => [type.id, type.seats])),
    oneTypeSeats: visible.length === 1 ? visible[0]!.seats : 1,
  };
}

/** The ids of the event's questions that have answers: those can be reworded, not deleted. */
export async function answeredQuestionIds(db: Queryable, eventId: string): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ id: bookingAnswers.questionId })
    .from(bookingAnswers)
    .innerJoin(eventQuestions, eq(eventQuestions.id, bookingAnswers.questionId))
    .where(eq(eventQuestions.eventId, eventId));
  return new Set(rows.map((row) => row.id));
}

async function answersWhere(db: Queryable, where: SQL): Promise<Map<string, ShownAnswer[]>> {
  const rows = await db
    .select({
      bookingRef: bookingAnswers.bookingRef,
      questionId: bookingAnswers.questionId,
      question: eventQuestions.question,
      attendee: bookingAnswers.attendee,
      answer: bookingAnswers.answer,
      shownAtDoor: eventQuestions.shownAtDoor,
    })
    .from(bookingAnswers)
    .innerJoin(eventQuestions, eq(eventQuestions.id, bookingAnswers.questionId))
    .where(where)
    .orderBy(...inOrder, asc(bookingAnswers.attendee));
  const byBooking = new Map<string, ShownAnswer[]>();
  for (const { bookingRef, ...answer } of rows) {
    const list = byBooking.get(bookingRef);
    if (list) list.push(answer);
    else byBooking.set(bookingRef, [answer]);
  }
  return byBooking;
}

/** The answers of each of these bookings, question by question in the event's order, by booking reference. */
export async function answersOfBookings(db: Queryable, bookingRefs: string[]): Promise<Map<string, ShownAnswer[]>> {
  if (bookingRefs.length === 0) return new Map();
  return answersWhere(db, inArray(bookingAnswers.bookingRef, bookingRefs));
}

/** One booking's answers, question by question, attendee by attendee. */
export async function answersOfBooking(db: Queryable, bookingRef: string): Promise<ShownAnswer[]> {
  return (await answersWhere(db, eq(bookingAnswers.bookingRef, bookingRef))).get(bookingRef) ?? [];
}

/** Every answer to an event's questions (one query), by booking reference. */
export async function answersOfEvent(db: Queryable, eventId: string): Promise<Map<string, ShownAnswer[]>> {
  return answersWhere(db, eq(eventQuestions.eventId, eventId));
}

/**
 * One booking's answers as a JSON array (ShownAnswer's fields, in answersOfBooking's order), for a
 * column of a query that reads the booking itself: its reference column is `bookingRef` (decision 088).
 */
export function answersJsonOf(bookingRef: AnyColumn): SQL<ShownAnswer[]> {
  return sql<ShownAnswer[]>`(select coalesce(json_agg(json_build_object(
      'questionId', ${bookingAnswers.questionId}, 'question', ${eventQuestions.question},
      'attendee', ${bookingAnswers.attendee}, 'answer', ${bookingAnswers.answer},
      'shownAtDoor', ${eventQuestions.shownAtDoor})
      order by ${eventQuestions.position}, ${eventQuestions.createdAt}, ${eventQuestions.id}, ${bookingAnswers.attendee}), '[]'::json)
    from ${bookingAnswers} inner join ${eventQuestions} on ${eventQuestions.id} = ${bookingAnswers.questionId}
    where ${bookingAnswers.bookingRef} = ${bookingRef})`;
}

/** Erasure: every answer of the bookings made with this e-mail address goes (answers may be health data). */
export function eraseAnswersOf(db: Queryable, bookingRefs: string[]) {
  return db.delete(bookingAnswers).where(inArray(bookingAnswers.bookingRef, bookingRefs));
}
