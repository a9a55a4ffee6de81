import { useEffect, useRef, useState, type FormEvent, type MouseEvent } from "react";
import { Form, useNavigation } from "react-router";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import { FormNotice } from "~/components/ui/form-notice";
import { BusyButton } from "~/components/ui/spinner";
import type { FieldErrors } from "~/lib/errors";
import { reminderChoices, reminderLabel } from "~/lib/reminders";
import {
  eventFieldId,
  eventFieldLabel,
  eventFormFromPost,
  eventFormLabels,
  eventFormSummary,
  pictureInputs,
  previewEvent,
  removalQuestion,
  withNewQuestionRow,
  withNewTypeRow,
  type EventFormValues,
  type QuestionRow,
  type TicketTypeRow,
} from "../event-form";
import type { StaffQuestion, StaffTicketType } from "../schema";
import { EventCard } from "./event-card";
import { CurrentPicture, GalleryFields, PictureInput, ReviewFields, type EventFormMessages } from "./event-pictures";
import { QuestionFields } from "./question-fields";
import { TicketTypeFields } from "./ticket-type-fields";
import { useHydrated } from "~/components/ui/use-hydrated";

const pictureHint =
  "A JPEG, PNG, WebP or AVIF picture of up to 15 MB, from your phone or computer. It is resized for the site, and its location and camera details are removed.";

const noErrors: FieldErrors = {};

/** "Poster must be at most 15 MB: this file is 16.0 MB." */
const sentence = (field: string, message: string) =>
  `${eventFieldLabel(field)} ${message.replace("eventDate", "the event date")}.`;

/** The form's ticket types, each with a key that stays while the form is drawn (saved: its id). */
let typeRowKeys = 0;
const keyedRows = (rows: TicketTypeRow[]) => rows.map((row) => ({ key: row.id || `new-${(typeRowKeys += 1)}`, row }));
const keyedQuestions = (rows: QuestionRow[]) =>
  rows.map((row) => ({ key: row.id || `new-${(typeRowKeys += 1)}`, row }));

/**
 * The staff event form: every field of the staff API, each with its message beside it, pictures
 * uploaded with it, the event's ticket types, and a preview of the public card. It posts to its own
 * page; nothing is saved unless every field is right (a good picture is kept on the form meanwhile).
 */
export function EventForm({
  values,
  errors = noErrors,
  submitLabel,
  now,
  eventId = "",
  savedTypes = [],
  savedQuestions = [],
  focus,
  onEdit,
}: {
  values: EventFormValues;
  errors?: FieldErrors;
  submitLabel: string;
  /** The site's time when the page was served, for the preview's Book button. */
  now: string;
  eventId?: string;
  /** The event's stored ticket types, for what each has sold. */
  savedTypes?: StaffTicketType[];
  /** The event's stored questions, for how many bookings answered each. */
  savedQuestions?: StaffQuestion[];
  /** The element to focus when the form is drawn again (the new type's Name, without JavaScript). */
  focus?: string;
  /** Called at each change to the form, before it is saved. */
  onEdit?: () => void;
}) {
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "save";
  const formRef = useRef<HTMLFormElement>(null);
  const saveRef = useRef<HTMLButtonElement>(null);
  const summaryRef = useRef<HTMLDivElement & HTMLParagraphElement>(null);
  const hydrated = useHydrated();
  /** Messages from checking a chosen file in the browser; null when a new choice clears the server's. */
  const [fileProblems, setFileProblems] = useState<Record<string, string | null>>({});
  const [newRows, setNewRows] = useState(Math.max(1, values.galleryNew.length));
  const [preview, setPreview] = useState(() => previewEvent(values, eventId, now));
  const [filesChosen, setFilesChosen] = useState(false);
  /** The object URL of a poster chosen and not yet saved, for the card's preview. */
  const [posterUrl, setPosterUrl] = useState<string | null>(null);
  const [question, setQuestion] = useState<ReturnType<typeof removalQuestion>>(null);
  const [typeRows, setTypeRows] = useState(() => keyedRows(values.ticketTypes));
  const [questionRows, setQuestionRows] = useState(() => keyedQuestions(values.questions));
  const confirmed = useRef(false);
  // A new answer from the server (values or messages) starts the form afresh: its file inputs
  // empty (their pictures are stored and named on the form now), its fields as the server has them.
  // It is decided while rendering, never in an effect afterwards: otherwise the answer's messages
  // are first drawn on the old form, and a file chosen in that moment goes into an input about to
  // be thrown away, so the next save says "Saved" without it (docs/decisions/076-*).
  const [answer, setAnswer] = useState({ values, errors, eventId, now, generation: 0 });
  if (answer.values !== values || answer.errors !== errors || answer.eventId !== eventId || answer.now !== now) {
    setAnswer({ values, errors, eventId, now, generation: answer.generation + 1 });
    setFileProblems({});
    setFilesChosen(false);
    setPosterUrl(null);
    setNewRows(Math.max(1, values.galleryNew.length));
    setPreview(previewEvent(values, eventId, now));
    setTypeRows(keyedRows(values.ticketTypes));
    setQuestionRows(keyedQuestions(values.questions));
  }
  const generation = answer.generation;

  // After an answer with messages, the summary takes the focus (on the form just drawn afresh); after
  // Add a ticket type without JavaScript, the new type's Name.
  useEffect(() => {
    if (generation === 0) return;
    const target = focus ? document.getElementById(focus) : null;
    if (target) target.focus();
    else summaryRef.current?.focus();
  }, [generation, focus]);

  const messageFor = (field: string) => {
    const local = fileProblems[field];
    return local === null ? undefined : (local ?? errors[field]);
  };
  const hasErrors = Object.keys(errors).length > 0;
  const messages: EventFormMessages = {
    errorFor(field) {
      const text = messageFor(field);
      return text ? sentence(field, text) : undefined;
    },
    fileChecked(field, problem) {
      setFileProblems((current) => ({ ...current, [field]: problem }));
    },
  };

  /** A text field of the event, named as the staff API names it. */
  function text(
    name: "name" | "location" | "ticketCost" | "totalAvailableTickets" | "waitingListOfferHours" | "link",
    input: { type: string; maxLength?: number; inputMode?: "decimal" | "numeric"; required?: boolean },
    hint?: string,
  ) {
    return (
      <Field
        id={eventFieldId(name)}
        label={eventFormLabels[name]}
        hint={hint}
        input={{ ...input, name, defaultValue: values[name] }}
        error={messages.errorFor(name)}
      />
    );
  }

  function when(name: "eventDate" | "ticketSaleExpiry", hint: string) {
    return (
      <Field
        id={eventFieldId(name)}
        label={eventFormLabels[name]}
        hint={hint}
        input={{ name, type: "datetime-local", required: true, defaultValue: values[name] }}
        error={messages.errorFor(name)}
      />
    );
  }

  /** Add a ticket type, in place: the ticket cost typed (on a form with no types yet) becomes the first. */
  function onAddType(event: MouseEvent<HTMLButtonElement>) {
    event.preventDefault();
    const form = formRef.current;
    if (!form) return;
    const typed = eventFormFromPost(new FormData(form));
    const next = withNewTypeRow({ ...typed, ticketTypes: typeRows.map(({ row }) => row) });
    const added = keyedRows(next.ticketTypes.slice(typeRows.length));
    setTypeRows([...typeRows, ...added]);
    onEdit?.();
    const last = next.ticketTypes.length - 1;
    requestAnimationFrame(() => {
      document.getElementById(eventFieldId(`ticketTypes.${last}.name`))?.focus();
      setPreview(previewEvent(eventFormFromPost(new FormData(form)), eventId, now));
    });
  }

  /** Add a question, in place. */
  function onAddQuestion(event: MouseEvent<HTMLButtonElement>) {
    event.preventDefault();
    const next = withNewQuestionRow({ ...values, questions: questionRows.map(({ row }) => row) });
    setQuestionRows([...questionRows, ...keyedQuestions(next.questions.slice(questionRows.length))]);
    onEdit?.();
    const last = next.questions.length - 1;
    requestAnimationFrame(() => document.getElementById(eventFieldId(`questions.${last}.question`))?.focus());
  }

  function onChange(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    onEdit?.();
    setPreview(previewEvent(eventFormFromPost(new FormData(form)), eventId, now));
    setFilesChosen([...form.querySelectorAll<HTMLInputElement>('input[type="file"]')].some((i) => i.files?.length));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (saving) {
      event.preventDefault();
      return;
    }
    const refused = Object.entries(fileProblems).find(([, problem]) => problem);
    if (refused) {
      event.preventDefault();
      document.getElementById(eventFieldId(refused[0]))?.focus();
      return;
    }
    if (!confirmed.current) {
      const removals = removalQuestion(new FormData(event.currentTarget), values);
      if (removals) {
        event.preventDefault();
        setQuestion(removals);
        return;
      }
    }
    confirmed.current = false;
  }

  return (
    <>
      <Form
        key={generation}
        ref={formRef}
        method="post"
        encType="multipart/form-data"
        className="form event-form"
        noValidate
        onChange={onChange}
        onSubmit={onSubmit}
      >
        {/* Enter in a field saves: the first submit button is the one a browser presses (not Add a ticket type). */}
        <button type="submit" name="intent" value="save" hidden tabIndex={-1} aria-hidden="true" />
        {hasErrors ? (
          <FormNotice ok={false} focusRef={summaryRef}>
            {eventFormSummary}
          </FormNotice>
        ) : null}
        {text("name", { type: "text", maxLength: 120, required: true })}
        <Field
          id={eventFieldId("description")}
          label={eventFormLabels.description}
          textarea={{ name: "description", rows: 5, maxLength: 2000, required: true, defaultValue: values.description }}
          error={messages.errorFor("description")}
        />
        <PictureInput
          field="posterImage"
          onChosen={setPosterUrl}
          name={pictureInputs.posterImage}
          label={eventFormLabels.posterImage}
          hint={
            values.posterImage
              ? `To replace it, choose another. ${pictureHint}`
              : `No poster yet: the public pages show a plain placeholder. ${pictureHint}`
          }
          current={
            <CurrentPicture
              image={values.posterImage}
              alt="The current poster"
              removeName="removePoster"
              removeLabel="Remove poster"
              removed={values.removePoster}
            />
          }
          messages={messages}
        />
        <input type="hidden" name="posterImage" value={values.posterImage} />
        {when("eventDate", "London time.")}
        {when("ticketSaleExpiry", "London time; no later than the event.")}
        {text("location", { type: "text", maxLength: 200 })}
        {typeRows.length === 0
          ? text(
              "ticketCost",
              { type: "text", inputMode: "decimal" },
              "The price of a ticket. Leave empty when tickets are sold elsewhere (see Link). For several kinds of ticket, use Ticket types below instead.",
            )
          : null}
        {text(
          "totalAvailableTickets",
          { type: "text", inputMode: "numeric", required: true },
          "The seats on sale, shared by every ticket type.",
        )}
        {text(
          "waitingListOfferHours",
          { type: "text", inputMode: "numeric", required: true },
          "When the event is sold out and tickets come back, how long the next person on the waiting list has to pay for them (never past the end of the sale).",
        )}
        <Field
          id={eventFieldId("reminderHours")}
          label={eventFormLabels.reminderHours}
          hint="Every booking made by then is e-mailed a reminder with the date, the place, the map, the door code and what to bring."
          select={{ name: "reminderHours", defaultValue: values.reminderHours }}
          error={messages.errorFor("reminderHours")}
        >
          <option value="">No reminder</option>
          {reminderOptions(values.reminderHours).map((choice) => (
            <option key={choice.hours} value={String(choice.hours)}>
              {choice.label}
            </option>
          ))}
        </Field>
        <Field
          id={eventFieldId("whatToBring")}
          label={eventFormLabels.whatToBring}
          hint="Optional: for the reminder, e.g. warm clothes, a torch, cash for the raffle."
          textarea={{ name: "whatToBring", rows: 2, maxLength: 500, defaultValue: values.whatToBring }}
          error={messages.errorFor("whatToBring")}
        />
        <TicketTypeFields
          rows={typeRows}
          saved={savedTypes}
          notSoldHere={values.notSoldHere}
          messages={messages}
          onAdd={hydrated ? onAddType : undefined}
        />
        <QuestionFields
          rows={questionRows}
          saved={savedQuestions}
          messages={messages}
          onAdd={hydrated ? onAddQuestion : undefined}
        />
        {text(
          "link",
          { type: "url" },
          "Optional, starting with https://. With no ticket cost, the page where tickets are sold (visitors see Get tickets). For an event booked here, a page about it (visitors see More about this event, never a second place to buy).",
        )}
        <Field
          id={eventFieldId("isTest")}
          label={eventFormLabels.isTest}
          input={{ name: "isTest", type: "checkbox", defaultChecked: values.isTest }}
        />

        <ReviewFields values={values} messages={messages} />
        <GalleryFields
          values={values}
          newRows={newRows}
          messages={messages}
          onAddRow={
            hydrated
              ? () => {
                  setNewRows((n) => n + 1);
                  // Focus the new row's file input once it is on the page.
                  requestAnimationFrame(() =>
                    document.getElementById(eventFieldId(`galleryNew.${newRows}.file`))?.focus(),
                  );
                }
              : undefined
          }
        />

        <section className="event-preview" aria-labelledby="event-preview-heading">
          <h2 id="event-preview-heading">Preview of the public card</h2>
          {preview ? (
            <div className="event-preview-card">
              <EventCard
                event={preview.event}
                availability={undefined}
                current={preview.current}
                preview
                posterUrl={posterUrl ?? undefined}
              />
            </div>
          ) : (
            <p className="field-hint">The preview appears once the event has a name and an event date.</p>
          )}
          {filesChosen ? (
            <p className="field-hint">
              The pictures you have chosen are stored when you save; until then the site is unchanged.
            </p>
          ) : null}
        </section>

        <div className="form-actions">
          {/* aria-disabled, not disabled: a disabled button would drop keyboard focus mid-send. */}
          <BusyButton busy={saving} busyLabel="Saving…" ref={saveRef} name="intent" value="save" aria-disabled={saving}>
            {submitLabel}
          </BusyButton>
          <p className="form-progress" role="status">
            {saving ? (filesChosen ? "Uploading the pictures and saving…" : "Saving…") : ""}
          </p>
        </div>
      </Form>
      <ConfirmDialog
        open={question !== null}
        title={question?.title ?? ""}
        message={question?.message ?? ""}
        confirmLabel={question?.confirm ?? ""}
        cancelLabel="Keep them"
        onCancel={() => setQuestion(null)}
        onConfirm={() => {
          setQuestion(null);
          confirmed.current = true;
          formRef.current?.requestSubmit(saveRef.current);
        }}
      />
    </>
  );
}

/** The reminder times offered, with the event's own when the staff API set one the list lacks. */
function reminderOptions(current: string) {
  const hours = Number(current);
  if (current === "" || !Number.isInteger(hours) || reminderChoices.some((choice) => choice.hours === hours)) {
    return reminderChoices;
  }
  return [...reminderChoices, { hours, label: reminderLabel(hours) }].sort((a, b) => a.hours - b.hours);
}
