import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Queryable } from "~/infra/db/database.server";
import { questionsOfEvent, type QuestionRow } from "~/infra/db/questions.server";
import type { FieldErrors } from "~/lib/errors";
import { answerTypeLabels, type AnswerType } from "~/lib/questions";
import { bookingAnswers, eventQuestions } from "~db/schema";
import type { QuestionInput, StaffQuestion } from "./schema";

// An event's questions as staff set them (decision 083): planned and checked with the rest of the
// event inside createEvent/updateEvent, written only when nothing is wrong, and told in the audit
// log's words.

const quoted = (text: string) => `“${text}”`;

/** How many bookings answered each question (of one event, or of all), by question id. */
async function answeredCounts(db: Queryable, eventId?: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: bookingAnswers.questionId, bookings: sql<number>`count(distinct ${bookingAnswers.bookingRef})::int` })
    .from(bookingAnswers)
    .innerJoin(eventQuestions, eq(eventQuestions.id, bookingAnswers.questionId))
    .where(eventId ? eq(eventQuestions.eventId, eventId) : undefined)
    .groupBy(bookingAnswers.questionId);
  return new Map(rows.map((row) => [row.id, Number(row.bookings)]));
}

function staffQuestion(row: QuestionRow, answered: number): StaffQuestion {
  return {
    id: row.id,
    question: row.question,
    answerType: row.answerType,
    choices: row.choices,
    required: row.required,
    perAttendee: row.perAttendee,
    shownAtDoor: row.shownAtDoor,
    asked: row.removedAt === null,
    position: row.position,
    answered,
  };
}

/** An event's questions as staff see them, in order, with how many bookings answered each. */
export async function staffQuestionsOf(db: Queryable, eventId: string): Promise<StaffQuestion[]> {
  const [rows, answered] = await Promise.all([questionsOfEvent(db, eventId), answeredCounts(db, eventId)]);
  return rows.map((row) => staffQuestion(row, answered.get(row.id) ?? 0));
}

/** Every event's questions as staff see them, by event id (two queries, however many events). */
export async function staffQuestionsByEvent(db: Queryable): Promise<Record<string, StaffQuestion[]>> {
  const [rows, answered] = await Promise.all([
    db
      .select()
      .from(eventQuestions)
      .orderBy(asc(eventQuestions.position), asc(eventQuestions.createdAt), asc(eventQuestions.id)),
    answeredCounts(db),
  ]);
  const byEvent: Record<string, StaffQuestion[]> = {};
  for (const row of rows) (byEvent[row.eventId] ??= []).push(staffQuestion(row, answered.get(row.id) ?? 0));
  return byEvent;
}

type QuestionFields = Pick<
  QuestionRow,
  "question" | "answerType" | "choices" | "required" | "perAttendee" | "shownAtDoor" | "position" | "removedAt"
>;

/** What saving the event's questions will do: its problems, by field, or the writes with their audit words. */
export interface QuestionPlan {
  problems: FieldErrors;
  apply(tx: Queryable, eventId: string, now: Date): Promise<string[]>;
}

const nothing = async () => [];

/**
 * Plans the event's questions from the API's `questions` (the whole list, in order): an item with
 * an `id` changes that question by what it gives, one without is new, a question left out is
 * deleted, which is refused for one with answers (it can be reworded, or no longer asked). An
 * answered question keeps its answer type, so its answers keep their meaning.
 */
export async function planQuestions(
  db: Queryable,
  eventId: string | undefined,
  list: QuestionInput[] | undefined,
  now: Date,
): Promise<QuestionPlan> {
  if (list === undefined) return { problems: {}, apply: nothing };
  const existing = eventId ? await questionsOfEvent(db, eventId) : [];
  const answered = eventId ? await answeredCounts(db, eventId) : new Map<string, number>();
  const byId = new Map(existing.map((row) => [row.id, row]));
  const problems: FieldErrors = {};
  const planned: { row?: QuestionRow; fields: QuestionFields }[] = [];
  list.forEach((item, i) => {
    const at = (field: string) => `questions.${i}.${field}`;
    const row = item.id === undefined ? undefined : byId.get(item.id);
    if (item.id !== undefined && !row) {
      problems[at("id")] = eventId ? "is not a question of this event" : "must be left out: the event is new";
      return;
    }
    const answerType: AnswerType = item.answerType ?? row?.answerType ?? "text";
    const fields: QuestionFields = {
      question: item.question ?? row?.question ?? "",
      answerType,
      choices: answerType === "choice" ? (item.choices ?? row?.choices ?? []) : [],
      required: item.required ?? row?.required ?? false,
      perAttendee: item.perAttendee ?? row?.perAttendee ?? false,
      shownAtDoor: item.shownAtDoor ?? row?.shownAtDoor ?? false,
      position: i,
      // No longer asked keeps the moment it first was; asked again clears it.
      removedAt: item.asked === undefined ? (row?.removedAt ?? null) : item.asked ? null : (row?.removedAt ?? now),
    };
    if (answerType === "choice" && fields.choices.length < 2) {
      problems[at("choices")] = "must list at least two answers to choose from, one per line";
    }
    if (row && (answered.get(row.id) ?? 0) > 0 && row.answerType !== answerType) {
      problems[at("answerType")] =
        `must stay “${answerTypeLabels[row.answerType]}”: the question has answers, which would lose their meaning`;
    }
    if (row && (answered.get(row.id) ?? 0) > 0 && row.perAttendee !== fields.perAttendee) {
      problems[at("perAttendee")] =
        "cannot change: the question has answers given " + (row.perAttendee ? "for each attendee" : "once per booking");
    }
    planned.push({ row, fields });
  });

  const kept = new Set(planned.flatMap(({ row }) => (row ? [row.id] : [])));
  const deleted = existing.filter((row) => !kept.has(row.id));
  const stuck = deleted.filter((row) => (answered.get(row.id) ?? 0) > 0);
  if (stuck.length > 0) {
    problems.questions = `must keep ${stuck.map((row) => quoted(row.question)).join(" and ")}: ${
      stuck.length === 1 ? "it has" : "they have"
    } answers, so ${stuck.length === 1 ? "it" : "they"} can be reworded or no longer asked, not deleted`;
  }

  return {
    problems,
    async apply(tx, id, at) {
      const words: string[] = [];
      if (deleted.length > 0) {
        await tx.delete(eventQuestions).where(
          and(
            eq(eventQuestions.eventId, id),
            inArray(
              eventQuestions.id,
              deleted.map((row) => row.id),
            ),
          ),
        );
        words.push(...deleted.map((row) => `deleted ${quoted(row.question)}`));
      }
      const added = planned.filter(({ row }) => !row).map(({ fields }) => fields);
      if (added.length > 0) {
        await tx
          .insert(eventQuestions)
          .values(added.map((fields) => ({ ...fields, eventId: id, createdAt: at, updatedAt: at })));
        words.push(...added.map((fields) => `added ${quoted(fields.question)}`));
      }
      for (const { row, fields } of planned) {
        if (!row) continue;
        const change = questionChangeWords(row, fields);
        if (change === null) continue;
        await tx
          .update(eventQuestions)
          .set({ ...fields, updatedAt: at })
          .where(eq(eventQuestions.id, row.id));
        if (change) words.push(change);
      }
      return words;
    },
  };
}

/** What changed in a question, in words; "" for its place alone; null for nothing. */
function questionChangeWords(row: QuestionRow, next: QuestionFields): string | null {
  const words: string[] = [];
  if (row.question !== next.question) words.push(`reworded ${quoted(next.question)}`);
  if (row.answerType !== next.answerType) words.push(`answer type ${answerTypeLabels[next.answerType]}`);
  if (JSON.stringify(row.choices) !== JSON.stringify(next.choices)) words.push("choices changed");
  if (row.required !== next.required) words.push(next.required ? "required" : "optional");
  if (row.perAttendee !== next.perAttendee)
    words.push(next.perAttendee ? "asked of each attendee" : "asked once per booking");
  if (row.shownAtDoor !== next.shownAtDoor)
    words.push(next.shownAtDoor ? "shown at the door" : "not shown at the door");
  if ((row.removedAt === null) !== (next.removedAt === null))
    words.push(next.removedAt ? "no longer asked" : "asked again");
  if (words.length > 0) return `${quoted(row.question)}: ${words.join(", ")}`;
  return row.position !== next.position ? "" : null;
}
