import { Field, FieldGroup, FieldMessage } from "~/components/ui/field";
import { FormNotice } from "~/components/ui/form-notice";
import { answerField, answersSummary, attendeeLabel, questionLimits, type AskedQuestion } from "~/lib/questions";
import { quantityForOverview, typedQuantity } from "../pricing";
import { typeField } from "../schema";

// The booking page's questions (decision 083): those asked once per booking, then each attendee's
// (one per seat the tickets chosen take: a table of 8 is 8 attendees), growing and shrinking with
// the quantities. The fields are the form's own inputs, read when it is sent (answersFromForm); the
// server checks them and its messages come back beside each field.

/** What the booking page knows of the event's questions. */
export interface BookingQuestionsData {
  questions: AskedQuestion[];
  /** The seats a ticket of each type takes, by type id. */
  seatsByType: Record<string, number>;
  /** The seats a ticket of the event's one visible type takes. */
  oneTypeSeats: number;
}

/** The most attendees' fields drawn at once: 29 tickets of a table of 50 would be 1,450 people. */
const maxAttendeesShown = 100;

/** The attendees the tickets chosen admit: the seats they take. */
function attendeesChosen(data: BookingQuestionsData, values: Record<string, string | undefined>, byType: boolean) {
  if (!byType) return quantityForOverview(values.quantity ?? "") * data.oneTypeSeats;
  return Object.entries(data.seatsByType).reduce(
    (sum, [typeId, seats]) => sum + typedQuantity(values[typeField(typeId)]) * seats,
    0,
  );
}

/**
 * The answers typed on the booking form, as POST /api/bookings takes them: `{answers: {<id>: "…"}}`,
 * a list in attendee order for a per-attendee question; nothing for a form without questions.
 */
export function answersFromForm(form: HTMLFormElement): { answers?: Record<string, string | string[]> } {
  const answers: Record<string, string | string[]> = {};
  const each: Record<string, string[]> = {};
  for (const field of form.querySelectorAll<HTMLElement>("[data-answer]")) {
    const [id, attendee] = (field.dataset.answer ?? "").split(":");
    if (!id) continue;
    const value =
      field instanceof HTMLFieldSetElement
        ? (field.querySelector<HTMLInputElement>("input:checked")?.value ?? "")
        : ((field as HTMLInputElement | HTMLSelectElement).value ?? "");
    if (attendee === "0") answers[id] = value;
    else (each[id] ??= []).push(value);
  }
  for (const [id, list] of Object.entries(each)) answers[id] = list;
  return Object.keys(answers).length > 0 ? { answers } : {};
}

function AnswerField({
  question,
  attendee,
  errors,
}: {
  question: AskedQuestion;
  attendee: number;
  errors: Partial<Record<string, string>>;
}) {
  const field = answerField(question.id, attendee);
  const id = `answer-${question.id}-${attendee}`;
  const label = question.required ? question.question : `${question.question} (optional)`;
  const tag = `${question.id}:${attendee}`;
  if (question.answerType === "yes-no") {
    return (
      <fieldset
        className="form-group answer-yes-no"
        id={id}
        data-answer={tag}
        aria-describedby={errors[field] ? `${id}-error` : undefined}
      >
        <legend>{label}</legend>
        <FieldMessage id={`${id}-error`} message={errors[field]} />
        {["Yes", "No"].map((answer) => (
          <Field
            key={answer}
            id={`${id}-${answer.toLowerCase()}`}
            label={answer}
            input={{ type: "radio", name: `${id}-choice`, value: answer }}
          />
        ))}
      </fieldset>
    );
  }
  if (question.answerType === "choice") {
    return (
      <Field
        id={id}
        label={label}
        select={{ required: question.required, defaultValue: "", ...{ "data-answer": tag } }}
        error={errors[field]}
      >
        <option value="">Choose…</option>
        {question.choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </Field>
    );
  }
  return (
    <Field
      id={id}
      label={label}
      input={{
        type: "text",
        maxLength: questionLimits.answer,
        required: question.required,
        ...{ "data-answer": tag },
      }}
      error={errors[field]}
    />
  );
}

/** A link to each answer the server refused, for a form's error summary: "Meal (Attendee 2): …". */
export interface AnswerErrorLink {
  key: string;
  href: string;
  label: string;
  message: string;
}

export function answerErrorLinks(
  data: BookingQuestionsData | undefined,
  errors: Partial<Record<string, string>>,
): AnswerErrorLink[] {
  return Object.entries(errors)
    .filter(([key, message]) => key.startsWith("answers.") && message)
    .map(([key, message]) => {
      const [, id, attendee = "0"] = key.split(".");
      const question = data?.questions.find((asked) => asked.id === id);
      const who = attendeeLabel(Number(attendee));
      return {
        key,
        href: `#answer-${id}-${attendee}`,
        label: `${question?.question ?? "Answers"}${who ? ` (${who})` : ""}`,
        message: message!,
      };
    });
}

/** The links of an error summary, each to its field ("label: message", or the message alone as its label). */
export function ErrorLinks({ links }: { links: Pick<AnswerErrorLink, "key" | "href" | "label" | "message">[] }) {
  return (
    <ul>
      {links.map((link) => (
        <li key={link.key}>
          <a href={link.href}>{link.label}</a>
          {link.message ? `: ${link.message}` : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * The event's questions on a form; nothing when it asks none. With `summary`, the section says
 * itself which answers were refused (the offer's payment, where nothing else can be); the booking
 * form leaves it out and lists them in its own one summary.
 */
export function BookingQuestions({
  data,
  values,
  byType,
  errors,
  summary = true,
}: {
  data: BookingQuestionsData | undefined;
  values: Record<string, string | undefined>;
  /** Whether the form asks a quantity per type. */
  byType: boolean;
  errors: Partial<Record<string, string>>;
  summary?: boolean;
}) {
  if (!data || data.questions.length === 0) return null;
  const once = data.questions.filter((question) => !question.perAttendee);
  const each = data.questions.filter((question) => question.perAttendee);
  const attendees = each.length > 0 ? Math.min(attendeesChosen(data, values, byType), maxAttendeesShown) : 0;
  const wrong = summary ? answerErrorLinks(data, errors) : [];
  return (
    <section className="booking-questions" aria-labelledby="booking-questions-heading">
      <h3 id="booking-questions-heading">Questions</h3>
      {wrong.length > 0 ? (
        <FormNotice ok={false} details={<ErrorLinks links={wrong} />}>
          {answersSummary}
        </FormNotice>
      ) : null}
      {once.map((question) => (
        <AnswerField key={question.id} question={question} attendee={0} errors={errors} />
      ))}
      {Array.from({ length: attendees }, (_, i) => i + 1).map((attendee) => (
        <FieldGroup
          key={attendee}
          id={`attendee-${attendee}`}
          legend={attendeeLabel(attendee)}
          className="form-group attendee"
        >
          {each.map((question) => (
            <AnswerField key={question.id} question={question} attendee={attendee} errors={errors} />
          ))}
        </FieldGroup>
      ))}
    </section>
  );
}
