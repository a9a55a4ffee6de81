import { useEffect, useState, type ReactNode } from "react";
import { Field, FieldGroup, FieldMessage } from "~/components/ui/field";
import { Picture } from "~/components/ui/picture";
import { notAPictureMessage, uploadSizeProblem, uploadTypes } from "~/lib/images";
import { eventFieldId, eventFieldLabel, eventFormLabels, pictureInputs, type EventFormValues } from "../event-form";

// The event form's pictures (the poster, the reviewer's photo, the gallery) and the review: each
// chosen file is checked in the browser at once, and the server checks it again.

const accept = uploadTypes.join(",");

/** What a part of the form needs from the whole: each field's message, and where a chosen file's problem goes. */
export interface EventFormMessages {
  /** The message beside a field, as a sentence naming it; undefined when it has none. */
  errorFor(field: string): string | undefined;
  /** A file just chosen in a field, checked: its problem, or null for a good one (or none chosen). */
  fileChecked(field: string, problem: string | null): void;
}

/** What is wrong with a chosen file, as the server would say it; null when nothing is. */
function fileProblem(file: File | undefined): string | null {
  if (!file) return null;
  return (
    uploadSizeProblem(file.size) ??
    (file.type && !(uploadTypes as readonly string[]).includes(file.type) ? notAPictureMessage : null)
  );
}

/** A file chosen in the browser and not yet saved: its name, and an object URL to show it with. */
interface ChosenFile {
  name: string;
  url: string;
  /** The browser could not draw it: most likely not a picture (the server says for sure). */
  unreadable: boolean;
}

/**
 * A file input for one picture, with the picture the field holds now; once a file is chosen (with
 * JavaScript), that file is shown in its place, marked as not yet saved. Without JavaScript the
 * input posts as it is.
 */
export function PictureInput({
  field,
  name,
  label,
  hint,
  current,
  messages,
  onChosen,
}: {
  field: string;
  name: string;
  label: string;
  hint?: string;
  current?: ReactNode;
  messages: EventFormMessages;
  /** The chosen file's object URL (null when none is chosen), for a preview elsewhere on the form. */
  onChosen?: (url: string | null) => void;
}) {
  const [chosen, setChosen] = useState<ChosenFile | null>(null);
  // The object URL lives as long as this choice: a new choice or leaving the form lets it go.
  useEffect(() => (chosen ? () => URL.revokeObjectURL(chosen.url) : undefined), [chosen]);
  const aside = chosen ? (
    <div className="current-picture chosen-picture">
      {chosen.unreadable ? (
        <p className="field-hint">{chosen.name} cannot be shown here: it may not be a picture.</p>
      ) : (
        <img
          src={chosen.url}
          alt={`The ${label.toLowerCase()} you have chosen, not yet saved`}
          width={160}
          height={100}
          onError={() => {
            setChosen((c) => (c ? { ...c, unreadable: true } : c));
            onChosen?.(null);
          }}
        />
      )}
    </div>
  ) : (
    current
  );
  return (
    <Field
      id={eventFieldId(field)}
      label={label}
      aside={aside}
      hint={chosen ? `Chosen: ${chosen.name}. It is stored when you save; until then the site is unchanged.` : hint}
      error={messages.errorFor(field)}
      input={{
        name,
        type: "file",
        accept,
        onChange: (event) => {
          const file = event.currentTarget.files?.[0];
          const problem = fileProblem(file);
          messages.fileChecked(field, problem);
          const next = file && !problem ? { name: file.name, url: URL.createObjectURL(file), unreadable: false } : null;
          setChosen(next);
          onChosen?.(next?.url ?? null);
        },
      }}
    />
  );
}

/** The picture a field names now, small, with a box to remove it. */
export function CurrentPicture({
  image,
  alt,
  removeName,
  removeLabel,
  removed,
}: {
  image: string;
  alt: string;
  removeName: string;
  removeLabel: string;
  removed: boolean;
}) {
  if (!image) return null;
  return (
    <div className="current-picture">
      <Picture image={{ src: image, alt }} sizes="10rem" width={160} height={100} />
      <Field
        id={eventFieldId(removeName)}
        label={removeLabel}
        input={{ name: removeName, type: "checkbox", defaultChecked: removed }}
      />
    </div>
  );
}

const reviewTexts = {
  "testimonial.name": (values: EventFormValues) => values.review.name,
  "testimonial.job": (values: EventFormValues) => values.review.job,
  "testimonial.testimonial": (values: EventFormValues) => values.review.words,
};

function ReviewText({
  field,
  values,
  messages,
}: {
  field: keyof typeof reviewTexts;
  values: EventFormValues;
  messages: EventFormMessages;
}) {
  const common = { name: field, defaultValue: reviewTexts[field](values) };
  const props = {
    id: eventFieldId(field),
    label: eventFormLabels[field],
    error: messages.errorFor(field),
  };
  return field === "testimonial.testimonial" ? (
    <Field {...props} textarea={{ ...common, rows: 4, maxLength: 1000 }} />
  ) : (
    <Field {...props} input={{ ...common, type: "text", maxLength: field === "testimonial.name" ? 80 : 120 }} />
  );
}

/** The review: who said what about the event, and their photo. */
export function ReviewFields({ values, messages }: { values: EventFormValues; messages: EventFormMessages }) {
  return (
    <FieldGroup
      id={eventFieldId("testimonial")}
      legend={eventFormLabels.testimonial}
      hint="Optional: what someone said about the event, shown on its page under Review. Leave it all empty for none."
      error={messages.errorFor("testimonial")}
    >
      <ReviewText field="testimonial.name" values={values} messages={messages} />
      <ReviewText field="testimonial.job" values={values} messages={messages} />
      <PictureInput
        field="testimonial.image"
        name={pictureInputs["testimonial.image"]}
        label={eventFormLabels["testimonial.image"]}
        hint="Optional: without one, the page shows their initial in a circle."
        messages={messages}
        current={
          <CurrentPicture
            image={values.review.image}
            alt={`The current photo of ${values.review.name || "the reviewer"}`}
            removeName="testimonial.removeImage"
            removeLabel="Remove reviewer's photo"
            removed={values.review.removeImage}
          />
        }
      />
      <input type="hidden" name="testimonial.image" value={values.review.image} />
      <ReviewText field="testimonial.testimonial" values={values} messages={messages} />
    </FieldGroup>
  );
}

/** The gallery: its pictures with their captions (each can be removed), and rows for new ones. */
export function GalleryFields({
  values,
  newRows,
  onAddRow,
  messages,
}: {
  values: EventFormValues;
  newRows: number;
  /** With JavaScript: another row for a new picture. */
  onAddRow?: () => void;
  messages: EventFormMessages;
}) {
  return (
    <FieldGroup
      id={eventFieldId("galleryImages")}
      legend={eventFormLabels.galleryImages}
      hint="Optional: pictures from the event, each with a caption, shown on its page."
      error={messages.errorFor("galleryImages")}
    >
      {values.gallery.length > 0 ? (
        <ol className="gallery-rows">
          {values.gallery.map((row, i) => (
            <li key={`${row.image}-${i}`} className="gallery-row">
              <Picture image={{ src: row.image, alt: "" }} sizes="10rem" width={160} height={100} />
              <div className="gallery-row-fields">
                <input type="hidden" name={`galleryImages.${i}.image`} value={row.image} />
                <FieldMessage
                  id={`${eventFieldId(`galleryImages.${i}.image`)}-error`}
                  message={messages.errorFor(`galleryImages.${i}.image`)}
                />
                <Field
                  id={eventFieldId(`galleryImages.${i}.description`)}
                  label={eventFieldLabel(`galleryImages.${i}.description`)}
                  input={{
                    name: `galleryImages.${i}.description`,
                    type: "text",
                    maxLength: 300,
                    defaultValue: row.description,
                  }}
                  error={messages.errorFor(`galleryImages.${i}.description`)}
                />
                <Field
                  id={eventFieldId(`galleryImages.${i}.remove`)}
                  label={`Remove picture ${i + 1}`}
                  input={{ name: `galleryImages.${i}.remove`, type: "checkbox", defaultChecked: row.remove }}
                />
              </div>
            </li>
          ))}
        </ol>
      ) : null}
      {Array.from({ length: newRows }, (_, k) => (
        <div key={k} className="gallery-new">
          <PictureInput
            field={`galleryNew.${k}.file`}
            name={`galleryNew.${k}.file`}
            label={eventFieldLabel(`galleryNew.${k}.file`)}
            messages={messages}
          />
          <Field
            id={eventFieldId(`galleryNew.${k}.description`)}
            label={eventFieldLabel(`galleryNew.${k}.description`)}
            input={{
              name: `galleryNew.${k}.description`,
              type: "text",
              maxLength: 300,
              defaultValue: values.galleryNew[k]?.description ?? "",
            }}
          />
        </div>
      ))}
      {onAddRow ? (
        <button type="button" className="button button-secondary" onClick={onAddRow}>
          Add another picture
        </button>
      ) : null}
    </FieldGroup>
  );
}
