import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Picture } from "~/components/ui/picture";
import type { FieldErrors } from "~/lib/errors";
import { notAPictureMessage, uploadSizeProblem, uploadTypes } from "~/lib/images";
import {
  eventFieldLabel,
  eventFormFromPost,
  eventFormLabels,
  pictureInputs,
  previewEvent,
  type EventFormValues,
} from "../event-form";
import { EventCard } from "./event-card";

const accept = uploadTypes.join(",");
const pictureHint =
  "A JPEG, PNG, WebP or AVIF picture of up to 15 MB, from your phone or computer. It is resized for the site, and its location and camera details are removed.";

const noErrors: FieldErrors = {};

/** The element id of a field, by the key its message comes under ("galleryImages.0.description"). */
const fieldId = (field: string) => `event-${field.replace(/\./g, "-")}`;

/** "Poster must be at most 15 MB: this file is 16.0 MB." */
const sentence = (field: string, message: string) =>
  `${eventFieldLabel(field)} ${message.replace("eventDate", "the event date")}.`;

/**
 * The staff event form: every field of the staff API, each with its message beside it, pictures
 * uploaded with it, and a preview of the public card. It posts to its own page; nothing is saved
 * unless every field is right (a good picture is kept on the form meanwhile).
 */
export function EventForm({
  values,
  errors = noErrors,
  submitLabel,
  now,
  eventId = "",
}: {
  values: EventFormValues;
  errors?: FieldErrors;
  submitLabel: string;
  /** The site's time when the page was served, for the preview's Book button. */
  now: string;
  eventId?: string;
}) {
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "save";
  const formRef = useRef<HTMLFormElement>(null);
  const saveRef = useRef<HTMLButtonElement>(null);
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const [hydrated, setHydrated] = useState(false);
  // A new answer from the server (values or messages) starts the form afresh: its file inputs
  // empty (their pictures are stored and named on the form now), its fields as the server has them.
  const [generation, setGeneration] = useState(0);
  const firstAnswer = useRef(true);
  /** Messages from checking a chosen file in the browser; null when a new choice clears the server's. */
  const [fileProblems, setFileProblems] = useState<Record<string, string | null>>({});
  const [newRows, setNewRows] = useState(Math.max(1, values.galleryNew.length));
  const [preview, setPreview] = useState(() => previewEvent(values, eventId, now));
  const [filesChosen, setFilesChosen] = useState(false);
  const [question, setQuestion] = useState<string | null>(null);
  const confirmed = useRef(false);

  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (firstAnswer.current) {
      firstAnswer.current = false;
      return;
    }
    setGeneration((g) => g + 1);
    setFileProblems({});
    setFilesChosen(false);
    setNewRows(Math.max(1, values.galleryNew.length));
    setPreview(previewEvent(values, eventId, now));
  }, [values, errors, eventId, now]);
  // After an answer with messages, the summary takes the focus (on the form just drawn afresh).
  useEffect(() => {
    if (generation > 0) summaryRef.current?.focus();
  }, [generation]);

  const messageFor = (field: string) => {
    const local = fileProblems[field];
    return local === null ? undefined : (local ?? errors[field]);
  };
  const hasErrors = Object.keys(errors).length > 0;

  function describedBy(field: string, hint: boolean) {
    const id = fieldId(field);
    return [hint ? `${id}-hint` : "", messageFor(field) ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  }

  function message(field: string) {
    const text = messageFor(field);
    return text ? (
      <p id={`${fieldId(field)}-error`} className="field-error">
        {sentence(field, text)}
      </p>
    ) : null;
  }

  function field(
    name:
      | "name"
      | "description"
      | "eventDate"
      | "ticketSaleExpiry"
      | "location"
      | "ticketCost"
      | "totalAvailableTickets"
      | "link",
    input: (props: InputProps) => ReactNode,
    hint?: string,
  ) {
    const id = fieldId(name);
    return (
      <div className="field">
        <label htmlFor={id}>{eventFormLabels[name]}</label>
        {hint ? (
          <p id={`${id}-hint`} className="field-hint">
            {hint}
          </p>
        ) : null}
        {input({
          id,
          name,
          defaultValue: values[name],
          "aria-invalid": messageFor(name) ? true : undefined,
          "aria-describedby": describedBy(name, Boolean(hint)),
        })}
        {message(name)}
      </div>
    );
  }

  /** A file input for one picture, checked in the browser as soon as it is chosen (the server checks again). */
  function fileInput(field: string, name: string, label: string, hint?: string, current?: ReactNode) {
    const id = fieldId(field);
    return (
      <>
        <label htmlFor={id}>{label}</label>
        {current}
        {hint ? (
          <p id={`${id}-hint`} className="field-hint">
            {hint}
          </p>
        ) : null}
        <input
          id={id}
          name={name}
          type="file"
          accept={accept}
          aria-invalid={messageFor(field) ? true : undefined}
          aria-describedby={describedBy(field, Boolean(hint))}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            const problem = file
              ? (uploadSizeProblem(file.size) ??
                (file.type && !(uploadTypes as readonly string[]).includes(file.type) ? notAPictureMessage : null))
              : null;
            setFileProblems((current) => ({ ...current, [field]: problem }));
          }}
        />
        {message(field)}
      </>
    );
  }

  /** The picture a field names now, small, with a box to remove it. */
  function currentPicture(image: string, alt: string, removeName: string, removeLabel: string, removed: boolean) {
    if (!image) return null;
    const id = fieldId(removeName);
    return (
      <div className="current-picture">
        <Picture image={{ src: image, alt }} sizes="10rem" width={160} height={100} />
        <div className="field-checkbox">
          <input id={id} name={removeName} type="checkbox" defaultChecked={removed} />
          <label htmlFor={id}>{removeLabel}</label>
        </div>
      </div>
    );
  }

  function onChange(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
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
      document.getElementById(fieldId(refused[0]))?.focus();
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
        {hasErrors ? (
          <p ref={summaryRef} className="form-summary" role="alert" tabIndex={-1}>
            Nothing was saved: please correct the fields marked below.
          </p>
        ) : null}
        {field("name", (props) => (
          <input {...props} type="text" maxLength={120} required />
        ))}
        {field("description", (props) => (
          <textarea {...props} rows={5} maxLength={2000} required />
        ))}
        <div className="field">
          {fileInput(
            "posterImage",
            pictureInputs.posterImage,
            eventFormLabels.posterImage,
            values.posterImage
              ? `To replace it, choose another. ${pictureHint}`
              : `No poster yet: the public pages show a plain placeholder. ${pictureHint}`,
            currentPicture(
              values.posterImage,
              "The current poster",
              "removePoster",
              "Remove poster",
              values.removePoster,
            ),
          )}
          <input type="hidden" name="posterImage" value={values.posterImage} />
        </div>
        {field(
          "eventDate",
          (props) => (
            <input {...props} type="datetime-local" required />
          ),
          "London time.",
        )}
        {field(
          "ticketSaleExpiry",
          (props) => (
            <input {...props} type="datetime-local" required />
          ),
          "London time; no later than the event.",
        )}
        {field("location", (props) => (
          <input {...props} type="text" maxLength={200} />
        ))}
        {field(
          "ticketCost",
          (props) => (
            <input {...props} type="text" inputMode="decimal" />
          ),
          "Leave empty when tickets are sold elsewhere (see Link).",
        )}
        {field("totalAvailableTickets", (props) => (
          <input {...props} type="text" inputMode="numeric" required />
        ))}
        {field(
          "link",
          (props) => (
            <input {...props} type="url" />
          ),
          "An outside ticketing page, if any: its address, starting with https://.",
        )}
        <div className="field field-checkbox">
          <input id="event-isTest" name="isTest" type="checkbox" defaultChecked={values.isTest} />
          <label htmlFor="event-isTest">{eventFormLabels.isTest}</label>
        </div>

        <fieldset className="form-group">
          <legend>{eventFormLabels.testimonial}</legend>
          <p className="field-hint">
            Optional: what someone said about the event, shown on its page under Review. Leave it all empty for none.
          </p>
          {message("testimonial")}
          <ReviewText
            field="testimonial.name"
            values={values}
            invalid={Boolean(messageFor("testimonial.name"))}
            describedBy={describedBy}
            message={message}
          />
          <ReviewText
            field="testimonial.job"
            values={values}
            invalid={Boolean(messageFor("testimonial.job"))}
            describedBy={describedBy}
            message={message}
          />
          <div className="field">
            {fileInput(
              "testimonial.image",
              pictureInputs["testimonial.image"],
              eventFormLabels["testimonial.image"],
              "Optional: without one, the page shows their initial in a circle.",
              currentPicture(
                values.review.image,
                `The current photo of ${values.review.name || "the reviewer"}`,
                "testimonial.removeImage",
                "Remove reviewer's photo",
                values.review.removeImage,
              ),
            )}
            <input type="hidden" name="testimonial.image" value={values.review.image} />
          </div>
          <ReviewText
            field="testimonial.testimonial"
            values={values}
            invalid={Boolean(messageFor("testimonial.testimonial"))}
            describedBy={describedBy}
            message={message}
          />
        </fieldset>

        <fieldset className="form-group">
          <legend>{eventFormLabels.galleryImages}</legend>
          <p className="field-hint">Optional: pictures from the event, each with a caption, shown on its page.</p>
          {message("galleryImages")}
          {values.gallery.length > 0 ? (
            <ol className="gallery-rows">
              {values.gallery.map((row, i) => (
                <li key={`${row.image}-${i}`} className="gallery-row">
                  <Picture image={{ src: row.image, alt: "" }} sizes="10rem" width={160} height={100} />
                  <div className="gallery-row-fields">
                    <input type="hidden" name={`galleryImages.${i}.image`} value={row.image} />
                    {message(`galleryImages.${i}.image`)}
                    <div className="field">
                      <label htmlFor={fieldId(`galleryImages.${i}.description`)}>
                        {eventFieldLabel(`galleryImages.${i}.description`)}
                      </label>
                      <input
                        id={fieldId(`galleryImages.${i}.description`)}
                        name={`galleryImages.${i}.description`}
                        type="text"
                        maxLength={300}
                        defaultValue={row.description}
                        aria-invalid={messageFor(`galleryImages.${i}.description`) ? true : undefined}
                        aria-describedby={describedBy(`galleryImages.${i}.description`, false)}
                      />
                      {message(`galleryImages.${i}.description`)}
                    </div>
                    <div className="field-checkbox">
                      <input
                        id={fieldId(`galleryImages.${i}.remove`)}
                        name={`galleryImages.${i}.remove`}
                        type="checkbox"
                        defaultChecked={row.remove}
                      />
                      <label htmlFor={fieldId(`galleryImages.${i}.remove`)}>Remove picture {i + 1}</label>
                    </div>
                  </div>
                </li>
              ))}
            </ol>
          ) : null}
          {Array.from({ length: newRows }, (_, k) => (
            <div key={k} className="gallery-new">
              <div className="field">
                {fileInput(`galleryNew.${k}.file`, `galleryNew.${k}.file`, eventFieldLabel(`galleryNew.${k}.file`))}
              </div>
              <div className="field">
                <label htmlFor={fieldId(`galleryNew.${k}.description`)}>
                  {eventFieldLabel(`galleryNew.${k}.description`)}
                </label>
                <input
                  id={fieldId(`galleryNew.${k}.description`)}
                  name={`galleryNew.${k}.description`}
                  type="text"
                  maxLength={300}
                  defaultValue={values.galleryNew[k]?.description ?? ""}
                />
              </div>
            </div>
          ))}
          {hydrated ? (
            <button
              type="button"
              className="button button-secondary"
              onClick={() => {
                setNewRows((n) => n + 1);
                // Focus the new row's file input once it is on the page.
                requestAnimationFrame(() => document.getElementById(fieldId(`galleryNew.${newRows}.file`))?.focus());
              }}
            >
              Add another picture
            </button>
          ) : null}
        </fieldset>

        <section className="event-preview" aria-labelledby="event-preview-heading">
          <h2 id="event-preview-heading">Preview of the public card</h2>
          {preview ? (
            <div className="event-preview-card">
              <EventCard event={preview.event} availability={undefined} current={preview.current} preview />
            </div>
          ) : (
            <p className="field-hint">The preview appears once the event has a name and an event date.</p>
          )}
          {filesChosen ? <p className="field-hint">Pictures you have just chosen show here once saved.</p> : null}
        </section>

        <div className="form-actions">
          {/* aria-disabled, not disabled: a disabled button would drop keyboard focus mid-send. */}
          <button
            ref={saveRef}
            type="submit"
            name="intent"
            value="save"
            className="button"
            aria-disabled={saving}
            aria-busy={saving}
          >
            {saving ? (
              <>
                <span className="spinner-ring spinner-ring-small" aria-hidden="true" />
                Saving…
              </>
            ) : (
              submitLabel
            )}
          </button>
          <p className="form-progress" role="status">
            {saving ? (filesChosen ? "Uploading the pictures and saving…" : "Saving…") : ""}
          </p>
        </div>
      </Form>
      <ConfirmDialog
        open={question !== null}
        title="Remove pictures?"
        message={question ?? ""}
        confirmLabel="Remove and save"
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

/** "Remove the poster and 2 gallery pictures from this event?" for the boxes ticked, or null for none. */
function removalQuestion(form: FormData, values: EventFormValues): string | null {
  const posted = eventFormFromPost(form);
  const parts: string[] = [];
  if (posted.removePoster && values.posterImage) parts.push("the poster");
  if (posted.review.removeImage && values.review.image) parts.push("the reviewer's photo");
  const pictures = posted.gallery.filter((row) => row.remove).length;
  if (pictures > 0) parts.push(pictures === 1 ? "1 gallery picture" : `${pictures} gallery pictures`);
  if (parts.length === 0) return null;
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  return `Remove ${list} from this event? Once saved, visitors no longer see ${parts.length === 1 && pictures <= 1 ? "it" : "them"}.`;
}

function ReviewText({
  field,
  values,
  invalid,
  describedBy,
  message,
}: {
  field: "testimonial.name" | "testimonial.job" | "testimonial.testimonial";
  values: EventFormValues;
  invalid: boolean;
  describedBy: (field: string, hint: boolean) => string | undefined;
  message: (field: string) => ReactNode;
}) {
  const id = fieldId(field);
  const props = {
    id,
    name: field,
    defaultValue: {
      "testimonial.name": values.review.name,
      "testimonial.job": values.review.job,
      "testimonial.testimonial": values.review.words,
    }[field],
    "aria-invalid": invalid || undefined,
    "aria-describedby": describedBy(field, false),
  };
  return (
    <div className="field">
      <label htmlFor={id}>{eventFormLabels[field]}</label>
      {field === "testimonial.testimonial" ? (
        <textarea {...props} rows={4} maxLength={1000} />
      ) : (
        <input {...props} type="text" maxLength={field === "testimonial.name" ? 80 : 120} />
      )}
      {message(field)}
    </div>
  );
}

interface InputProps {
  id: string;
  name: string;
  defaultValue: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}
