// An event's questions and a booking's answers (decision 083): the rules, shared by the staff form,
// the checkout, the booking page and every place that shows the answers.

export const answerTypes = ["text", "choice", "yes-no"] as const;
export type AnswerType = (typeof answerTypes)[number];

/** How staff see each answer type named (the form's `Answer type`). */
export const answerTypeLabels: Record<AnswerType, string> = {
  text: "Short text",
  choice: "One of a list",
  "yes-no": "Yes or no",
};

export const questionLimits = {
  /** Questions per event. */
  questions: 20,
  /** A question's wording. */
  question: 200,
  /** Choices of a list, and each choice's length. */
  choices: 30,
  choice: 80,
  /** A short-text answer. */
  answer: 200,
} as const;

/** A question as the checkout and the booking page need it. */
export interface AskedQuestion {
  id: string;
  question: string;
  answerType: AnswerType;
  choices: string[];
  required: boolean;
  perAttendee: boolean;
}

/** The answers a booking sends: `{<question id>: "…"}`, or a list, one per attendee, for a per-attendee question. */
export type AnswersInput = Record<string, string | string[]>;

/** One stored answer: attendee 0 for a question asked once per booking, 1… for each attendee. */
export interface AnswerRow {
  questionId: string;
  attendee: number;
  answer: string;
}

/** The field an answer's message comes under: `answers.<id>` (once per booking), `answers.<id>.<n>` (attendee n, from 1). */
export const answerField = (questionId: string, attendee = 0) =>
  attendee === 0 ? `answers.${questionId}` : `answers.${questionId}.${attendee}`;

export const answerMessages = {
  required: "Please answer this question.",
  choice: "Please choose one of the answers listed.",
  yesNo: "Please answer yes or no.",
  tooLong: `Please keep the answer to ${questionLimits.answer} characters or fewer.`,
  shape: "The answers could not be read: please reload the page and answer again.",
} as const;

export const answersSummary = "Please answer the questions marked below.";

/** "Attendee 2" for a per-attendee question's n-th answer; "" for an answer once per booking. */
export const attendeeLabel = (attendee: number) => (attendee === 0 ? "" : `Attendee ${attendee}`);

/** One answer as typed, checked against its question; the answer to store ("" for none), or a message. */
export function checkAnswer(
  question: AskedQuestion,
  value: unknown,
): { ok: true; answer: string } | { ok: false; message: string } {
  if (value !== undefined && value !== null && typeof value !== "string")
    return { ok: false, message: answerMessages.shape };
  const answer = (value ?? "").trim().replace(/\s+/g, " ");
  if (answer === "") return question.required ? { ok: false, message: answerMessages.required } : { ok: true, answer };
  if (answer.length > questionLimits.answer) return { ok: false, message: answerMessages.tooLong };
  if (question.answerType === "choice" && !question.choices.includes(answer)) {
    return { ok: false, message: answerMessages.choice };
  }
  if (question.answerType === "yes-no") {
    const yes = /^(yes|true|on)$/i.test(answer);
    if (!yes && !/^(no|false)$/i.test(answer)) return { ok: false, message: answerMessages.yesNo };
    return { ok: true, answer: yes ? "Yes" : "No" };
  }
  return { ok: true, answer };
}

/**
 * A booking's answers checked against the event's questions, for `attendees` people (the seats the
 * booking's tickets take: a table of eight is eight). Per-attendee questions take a list of one
 * answer per attendee (a lone string counts for a booking of one); the others one string. Answers
 * to questions the event does not ask are refused, not ignored, so a stale page is noticed. Empty
 * answers are not stored. Every message at once, by field.
 */
export function checkAnswers(
  questions: AskedQuestion[],
  input: unknown,
  attendees: number,
): { ok: true; rows: AnswerRow[] } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const rows: AnswerRow[] = [];
  if (input !== undefined && input !== null && (typeof input !== "object" || Array.isArray(input))) {
    return { ok: false, errors: { answers: answerMessages.shape } };
  }
  const given = (input ?? {}) as Record<string, unknown>;
  const known = new Set(questions.map((question) => question.id));
  if (Object.keys(given).some((id) => !known.has(id))) return { ok: false, errors: { answers: answerMessages.shape } };
  for (const question of questions) {
    const value = given[question.id];
    if (!question.perAttendee) {
      const checked = checkAnswer(question, value);
      if (!checked.ok) errors[answerField(question.id)] = checked.message;
      else if (checked.answer !== "") rows.push({ questionId: question.id, attendee: 0, answer: checked.answer });
      continue;
    }
    const list = Array.isArray(value) ? (value as unknown[]) : value === undefined || value === null ? [] : [value];
    if (list.length > attendees) {
      errors[answerField(question.id)] = answerMessages.shape;
      continue;
    }
    for (let attendee = 1; attendee <= attendees; attendee++) {
      const checked = checkAnswer(question, list[attendee - 1]);
      if (!checked.ok) errors[answerField(question.id, attendee)] = checked.message;
      else if (checked.answer !== "") rows.push({ questionId: question.id, attendee, answer: checked.answer });
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, rows };
}

/** A stored answer as staff and the buyer read it, with its question. */
export interface ShownAnswer {
  questionId: string;
  question: string;
  attendee: number;
  answer: string;
  shownAtDoor: boolean;
}

/** "Meal: Fish" or "Dietary needs (Attendee 2): Vegan". */
export function answerLine(answer: Pick<ShownAnswer, "question" | "attendee" | "answer">): string {
  const who = attendeeLabel(answer.attendee);
  return `${answer.question}${who ? ` (${who})` : ""}: ${answer.answer}`;
}

/**
 * A question's answers in one cell (the tickets CSV): the answer itself once per booking;
 * "1: Vegan; 2: None" for each attendee.
 */
export function answersCell(answers: Pick<ShownAnswer, "attendee" | "answer">[]): string {
  if (answers.length === 0) return "";
  if (answers.length === 1 && answers[0]!.attendee === 0) return answers[0]!.answer;
  return [...answers]
    .sort((a, b) => a.attendee - b.attendee)
    .map((answer) => `${answer.attendee}: ${answer.answer}`)
    .join("; ");
}
