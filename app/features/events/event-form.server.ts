import type { Database, Queryable } from "~/infra/db/database.server";
import { questionsOfEvent } from "~/infra/db/questions.server";
import { typesOfEvent } from "~/infra/db/ticket-types.server";
import { uploadPicture, type PictureLibrary } from "~/infra/images/uploads.server";
import { announceChange } from "~/infra/live/changes.server";
import type { Clock } from "~/lib/clock";
import { AppError, type FieldErrors } from "~/lib/errors";
import { fieldErrors } from "~/lib/forms";
import {
  eventFieldId,
  eventFormFromPost,
  eventFormSummary,
  eventInputFromForm,
  changedEventFields,
  formErrors,
  pictureInputs,
  rowIndices,
  withNewQuestionRow,
  withNewTypeRow,
  type EventFormField,
  type EventFormValues,
} from "./event-form";
import { createEvent, findEvent, updateEvent } from "./events.server";
import { eventChangesSchema, newEventSchema, type EventView, type NewEvent } from "./schema";

interface EventFormServices {
  db: Database;
  clock: Clock;
  pictures: PictureLibrary;
}

/** A saved event with the fields the save changed (by their labels; every field for a new event), or the form refused. */
export type EventFormResult =
  { event: EventView; changed: EventFormField[] } | { values: EventFormValues; errors: FieldErrors };

/** What an event's page shows again after a refusal: the event form as sent (its good pictures stored), or the reason typed to cancel it. */
export interface EventPageValues {
  event?: EventFormValues;
  reason?: string;
}

/** The refusal of a form with mistakes, for `answerForm`: its summary, each field's message, and the form as sent. */
export function eventFormRefused(result: { values: EventFormValues; errors: FieldErrors }) {
  return { ok: false, message: eventFormSummary, fields: result.errors, values: { event: result.values } };
}

/**
 * The posted form as it should be shown again, its pictures stored: each good one is stored and
 * kept on the form (so a mistake elsewhere does not lose it), a bad one gets its message beside its
 * field.
 */
async function readEventForm(
  form: FormData,
  { db, clock }: EventFormServices,
  staff: { id: string; email: string },
): Promise<{ values: EventFormValues; problems: FieldErrors }> {
  const now = clock.now();
  const values = eventFormFromPost(form);
  const problems: FieldErrors = {};

  /** Stores a chosen file; its name, or undefined when none was chosen or it was refused (with its message). */
  const upload = async (file: FormDataEntryValue | null, field: string): Promise<string | undefined> => {
    if (!(file instanceof File) || (file.size === 0 && file.name === "")) return undefined;
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      return (await uploadPicture(db, bytes, { originalName: file.name, uploadedBy: staff.id, now })).image;
    } catch (error) {
      if (!(error instanceof AppError && error.fields?.file)) throw error;
      problems[field] = error.fields.file;
      return undefined;
    }
  };

  const poster = await upload(form.get(pictureInputs.posterImage), "posterImage");
  if (poster) Object.assign(values, { posterImage: poster, removePoster: false });
  const photo = await upload(form.get(pictureInputs["testimonial.image"]), "testimonial.image");
  if (photo) Object.assign(values.review, { image: photo, removeImage: false });
  for (const k of rowIndices(form, "galleryNew", "description")) {
    const caption = form.get(`galleryNew.${k}.description`);
    const description = typeof caption === "string" ? caption.slice(0, 4000) : "";
    const file = form.get(`galleryNew.${k}.file`);
    const row = values.galleryNew.length;
    if (!(file instanceof File) || (file.size === 0 && file.name === "")) {
      if (description.trim() === "") continue;
      problems[`galleryNew.${row}.file`] = "must be chosen to go with its caption";
      values.galleryNew.push({ description });
      continue;
    }
    const image = await upload(file, `galleryNew.${row}.file`);
    if (image) values.gallery.push({ image, description, remove: false });
    else values.galleryNew.push({ description });
  }
  return { values, problems };
}

/**
 * `Add a ticket type` without JavaScript: the form drawn again with a new type to fill in (its
 * pictures stored, as a save would), nothing of the event saved, and the new type's Name to type in.
 */
export async function addTicketTypeRow(
  form: FormData,
  services: EventFormServices,
  staff: { id: string; email: string },
): Promise<{ values: EventFormValues; errors: FieldErrors; focus: string }> {
  const { values, problems } = await readEventForm(form, services, staff);
  const added = withNewTypeRow(values);
  return {
    values: added,
    errors: problems,
    focus: eventFieldId(`ticketTypes.${added.ticketTypes.length - 1}.name`),
  };
}

/**
 * `Add a question` without JavaScript: the form drawn again with a new question to fill in, nothing
 * of the event saved, and the new question's wording to type in (decision 083).
 */
export async function addQuestionRow(
  form: FormData,
  services: EventFormServices,
  staff: { id: string; email: string },
): Promise<{ values: EventFormValues; errors: FieldErrors; focus: string }> {
  const { values, problems } = await readEventForm(form, services, staff);
  const added = withNewQuestionRow(values);
  return {
    values: added,
    errors: problems,
    focus: eventFieldId(`questions.${added.questions.length - 1}.question`),
  };
}

/** What staff set of an event's questions, to tell whether a save changed any. */
async function questionsAsSet(db: Queryable, eventId: string): Promise<string> {
  const rows = await questionsOfEvent(db, eventId);
  return JSON.stringify(rows.map(({ createdAt: _created, updatedAt: _updated, ...row }) => row));
}

/** What staff set of an event's types, to tell whether a save changed any. */
async function typesAsSet(db: Queryable, eventId: string): Promise<string> {
  const rows = await typesOfEvent(db, eventId);
  return JSON.stringify(
    rows.map((row) => [
      row.id,
      row.name,
      row.pricePence,
      row.seatsPerTicket,
      row.cap,
      row.saleFrom?.getTime(),
      row.saleUntil?.getTime(),
      row.hidden,
      row.offSaleAt === null,
    ]),
  );
}

/**
 * Saves the staff event form, new (`"new"`) or changed (`{id}`). Its pictures go first (readEventForm).
 * The event is then checked and saved by the API's own schema and rules, its ticket types with it;
 * on any message nothing of the event changes, and the values come back to be shown again.
 */
export async function saveEventForm(
  form: FormData,
  target: "new" | { id: string },
  services: EventFormServices,
  staff: { id: string; email: string },
): Promise<EventFormResult> {
  const { db, clock, pictures } = services;
  const now = clock.now();
  const { values, problems } = await readEventForm(form, services, staff);

  const { input, errors: unreadable } = eventInputFromForm(values);
  const parsed = target === "new" ? newEventSchema.safeParse(input) : eventChangesSchema.safeParse(input);
  const errors = {
    ...(parsed.success ? {} : formErrors(fieldErrors(parsed.error), values)),
    ...unreadable,
    ...problems,
  };
  if (!parsed.success || Object.keys(errors).length > 0) return { values, errors };

  try {
    const saved = await db.transaction(async (tx) => {
      if (target === "new") {
        // A new event's values passed newEventSchema just above.
        const event = await createEvent(tx, parsed.data as NewEvent, now, pictures, { staff });
        await announceChange(tx, "events");
        return { event, changed: changedEventFields(undefined, event) };
      }
      const before = await findEvent({ db: tx }, target.id);
      const typesBefore = before && (await typesAsSet(tx, target.id));
      const questionsBefore = before && (await questionsAsSet(tx, target.id));
      const event = before && (await updateEvent(tx, target.id, parsed.data, now, pictures, { staff }));
      if (!event) return undefined;
      await announceChange(tx, "events");
      const changed = changedEventFields(before, event);
      if ((await typesAsSet(tx, target.id)) !== typesBefore) changed.push("ticketTypes");
      if ((await questionsAsSet(tx, target.id)) !== questionsBefore) changed.push("questions");
      return { event, changed };
    });
    if (!saved) throw new AppError("not-found", "There is no such event.");
    return saved;
  } catch (error) {
    if (!(error instanceof AppError && error.code === "invalid" && error.fields)) throw error;
    return { values, errors: formErrors(error.fields, values) };
  }
}
