import type { MouseEvent } from "react";
import { Field, FieldGroup } from "~/components/ui/field";
import { answerTypeLabels, answerTypes, questionLimits } from "~/lib/questions";
import { eventFieldId, eventFormLabels, questionLabels, type QuestionRow } from "../event-form";
import type { StaffQuestion } from "../schema";
import type { EventFormMessages } from "./event-pictures";

// The event form's `Questions` (decision 083), built as its `Ticket types` are: each question's
// fields under its own legend, how many bookings answered it, and `Add a question`. Without
// JavaScript the button posts the form and the page draws it again with the new question.

/** The intent `Add a question` posts without JavaScript. */
export const addQuestionIntent = "add-question";

const bookingsWord = (n: number) => (n === 1 ? "booking" : "bookings");

function QuestionRowFields({
  row,
  index,
  saved,
  messages,
}: {
  row: QuestionRow;
  index: number;
  saved: StaffQuestion | undefined;
  messages: EventFormMessages;
}) {
  const name = (field: keyof QuestionRow) => `questions.${index}.${field}`;
  const tick = (field: "required" | "perAttendee" | "shownAtDoor" | "notAsked" | "remove", hint?: string) => (
    <Field
      id={eventFieldId(name(field))}
      label={questionLabels[field]}
      hint={hint}
      input={{ type: "checkbox", name: name(field), defaultChecked: row[field] }}
      error={messages.errorFor(name(field))}
    />
  );
  const answered = saved?.answered ?? 0;
  return (
    <li>
      <FieldGroup
        id={eventFieldId(`questions.${index}`)}
        legend={saved ? `Question ${index + 1}: ${saved.question}` : `Question ${index + 1} (new)`}
        hint={
          saved
            ? `${answered === 0 ? "Not answered yet" : `Answered by ${answered} ${bookingsWord(answered)}`}${saved.asked ? "" : " · no longer asked"}`
            : "Not saved yet."
        }
        error={messages.errorFor(`questions.${index}.id`)}
        className="form-group question-row"
      >
        <input type="hidden" name={name("id")} value={row.id} />
        <Field
          id={eventFieldId(name("question"))}
          label={questionLabels.question}
          hint={
            answered > 0
              ? "It can be reworded; the answers already given stay with it."
              : "What the booking page asks, such as Meal choice or Dietary needs."
          }
          input={{
            type: "text",
            name: name("question"),
            defaultValue: row.question,
            maxLength: questionLimits.question,
            required: true,
          }}
          error={messages.errorFor(name("question"))}
        />
        <Field
          id={eventFieldId(name("answerType"))}
          label={questionLabels.answerType}
          select={{ name: name("answerType"), defaultValue: row.answerType }}
          error={messages.errorFor(name("answerType"))}
        >
          {answerTypes.map((type) => (
            <option key={type} value={type}>
              {answerTypeLabels[type]}
            </option>
          ))}
        </Field>
        <Field
          id={eventFieldId(name("choices"))}
          label={questionLabels.choices}
          hint="For One of a list: the answers to choose from, one per line."
          textarea={{ name: name("choices"), rows: 3, defaultValue: row.choices }}
          error={messages.errorFor(name("choices"))}
        />
        {tick("required", "Visitors cannot book without answering it.")}
        {tick(
          "perAttendee",
          "Asked once for each person the booking admits (a table of 8: 8 times). Unticked: once per booking.",
        )}
        {tick("shownAtDoor", "Door staff see the answers when they check the booking in.")}
        {saved ? tick("notAsked", "Visitors are not asked it while this is ticked; its answers are kept.") : null}
        {answered > 0 ? (
          <p className="field-hint">
            It has answers, so it cannot be deleted: reword it, or tick No longer asked to stop asking it.
          </p>
        ) : (
          tick("remove", saved ? "Never answered, so it can go. You are asked before it is deleted." : undefined)
        )}
      </FieldGroup>
    </li>
  );
}

/**
 * The event's questions on the form: `rows` as they stand (saved and added), `saved` the stored
 * questions for how many answered each, `onAdd` (with JavaScript) adding one in place.
 */
export function QuestionFields({
  rows,
  saved,
  messages,
  onAdd,
}: {
  rows: { key: string; row: QuestionRow }[];
  saved: StaffQuestion[];
  messages: EventFormMessages;
  onAdd?: (event: MouseEvent<HTMLButtonElement>) => void;
}) {
  const byId = new Map(saved.map((question) => [question.id, question]));
  return (
    <FieldGroup
      id={eventFieldId("questions")}
      legend={eventFormLabels.questions}
      hint="What the booking page asks each buyer, such as a meal choice or dietary needs, in this order. Answers can be personal, even health, data: ask only what the event needs."
      error={messages.errorFor("questions")}
      className="form-group questions"
    >
      {rows.length > 0 ? (
        <ol className="question-rows">
          {rows.map(({ key, row }, index) => (
            <QuestionRowFields key={key} row={row} index={index} saved={byId.get(row.id)} messages={messages} />
          ))}
        </ol>
      ) : null}
      <button type="submit" name="intent" value={addQuestionIntent} className="button button-secondary" onClick={onAdd}>
        Add a question
      </button>
    </FieldGroup>
  );
}
