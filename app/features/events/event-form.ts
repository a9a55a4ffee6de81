import { fromLondonInput, londonInputValue } from "~/lib/london-time";
import type { FieldErrors } from "~/lib/errors";
import { isHttpsUrl } from "~/lib/links";
import { parsePence } from "~/lib/money";
import type { EventView } from "./schema";

// The staff event form (/admin/events/new and /admin/events/:id) speaks the staff API's language:
// its fields are read into the API's event shape and checked by the same schemas and rules.
// Pictures are uploaded with the form (./event-form.server.ts) and named like the API names them.

/** The form's fields, by the API's field names, with the labels staff see. */
export const eventFormLabels = {
  name: "Name",
  description: "Description",
  posterImage: "Poster",
  eventDate: "Event date",
  ticketSaleExpiry: "Ticket sale ends",
  location: "Location",
  ticketCost: "Ticket cost (£)",
  totalAvailableTickets: "Tickets available",
  isTest: "Test event",
  link: "Link",
  "testimonial.name": "Reviewer",
  "testimonial.job": "Reviewer's job",
  "testimonial.image": "Reviewer's photo",
  "testimonial.testimonial": "What they said",
  testimonial: "Review",
  galleryImages: "Gallery",
} as const;

export type EventFormField = keyof typeof eventFormLabels;

/** The label for a field's message, including one picture of the gallery ("galleryImages.2.description"). */
export function eventFieldLabel(field: string): string {
  const row = /^galleryImages\.(\d+)\.(\w+)$/.exec(field);
  if (row)
    return row[2] === "description" ? `Caption for picture ${Number(row[1]) + 1}` : `Picture ${Number(row[1]) + 1}`;
  const added = /^galleryNew\.(\d+)\.(\w+)$/.exec(field);
  if (added)
    return added[2] === "description"
      ? `Caption for new picture ${Number(added[1]) + 1}`
      : `New picture ${Number(added[1]) + 1}`;
  return field in eventFormLabels ? eventFormLabels[field as EventFormField] : field;
}

/** What a save changed, by the fields' labels: `before` undefined (a new event) names every field. */
export function changedEventFields(before: EventView | undefined, after: EventView): EventFormField[] {
  const same = (field: keyof EventView) =>
    before !== undefined && JSON.stringify(before[field]) === JSON.stringify(after[field]);
  const fields: [EventFormField, keyof EventView][] = [
    ["name", "name"],
    ["description", "description"],
    ["posterImage", "posterImage"],
    ["eventDate", "eventDate"],
    ["ticketSaleExpiry", "ticketSaleExpiry"],
    ["location", "location"],
    ["ticketCost", "ticketCostPence"],
    ["totalAvailableTickets", "totalAvailableTickets"],
    ["isTest", "isTest"],
    ["link", "link"],
    ["testimonial", "testimonial"],
    ["galleryImages", "galleryImages"],
  ];
  return fields.filter(([, key]) => !same(key)).map(([field]) => field);
}

/** What the form's summary says when nothing was saved. */
export const eventFormSummary = "Nothing was saved: please correct the fields marked below.";

/** A picture of the gallery as the form shows it: kept, with its caption, unless Remove is ticked. */
export interface GalleryRow {
  image: string;
  description: string;
  remove: boolean;
}

/** What the form shows: the values as typed (strings), London times for the dates, pictures by name. */
export interface EventFormValues {
  name: string;
  description: string;
  /** The poster's name ("" for none): the current one, or one just uploaded with the form. */
  posterImage: string;
  removePoster: boolean;
  eventDate: string;
  ticketSaleExpiry: string;
  location: string;
  ticketCost: string;
  totalAvailableTickets: string;
  isTest: boolean;
  link: string;
  review: { name: string; job: string; image: string; removeImage: boolean; words: string };
  gallery: GalleryRow[];
  /** Pictures being added whose file was refused: their captions, shown again beside the message. */
  galleryNew: { description: string }[];
}

export const emptyEventForm: EventFormValues = {
  name: "",
  description: "",
  posterImage: "",
  removePoster: false,
  eventDate: "",
  ticketSaleExpiry: "",
  location: "",
  ticketCost: "",
  totalAvailableTickets: "",
  isTest: false,
  link: "",
  review: { name: "", job: "", image: "", removeImage: false, words: "" },
  gallery: [],
  galleryNew: [],
};

export function eventFormValues(event: EventView): EventFormValues {
  return {
    name: event.name,
    description: event.description,
    posterImage: event.posterImage,
    removePoster: false,
    eventDate: londonInputValue(event.eventDate),
    ticketSaleExpiry: londonInputValue(event.ticketSaleExpiry),
    location: event.location,
    ticketCost: event.ticketCostPence === null ? "" : (event.ticketCostPence / 100).toFixed(2),
    totalAvailableTickets: String(event.totalAvailableTickets),
    isTest: event.isTest,
    link: event.link ?? "",
    review: {
      name: event.testimonial?.name ?? "",
      job: event.testimonial?.job ?? "",
      image: event.testimonial?.image ?? "",
      removeImage: false,
      words: event.testimonial?.testimonial ?? "",
    },
    gallery: event.galleryImages.map((item) => ({ ...item, remove: false })),
    galleryNew: [],
  };
}

/** The form's file inputs, by the field their message belongs to. */
export const pictureInputs = { posterImage: "posterFile", "testimonial.image": "testimonial.file" } as const;

/** At most this many gallery rows are read from one post (the API allows 24 pictures). */
const maxRows = 60;

/** The indices of the rows named `<prefix>.<i>.<part>` in a post, in order. */
export function rowIndices(form: FormData, prefix: string, part: string): number[] {
  const pattern = new RegExp(`^${prefix}\\.(\\d{1,3})\\.${part}$`);
  const indices = new Set<number>();
  for (const key of form.keys()) {
    const match = pattern.exec(key);
    if (match) indices.add(Number(match[1]));
  }
  return [...indices].sort((a, b) => a - b).slice(0, maxRows);
}

/** The posted form as typed (its files aside), for showing it again. */
export function eventFormFromPost(form: FormData): EventFormValues {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.slice(0, 4000) : "";
  };
  const ticked = (name: string) => form.get(name) === "on";
  return {
    name: text("name"),
    description: text("description"),
    posterImage: text("posterImage"),
    removePoster: ticked("removePoster"),
    eventDate: text("eventDate"),
    ticketSaleExpiry: text("ticketSaleExpiry"),
    location: text("location"),
    ticketCost: text("ticketCost"),
    totalAvailableTickets: text("totalAvailableTickets"),
    isTest: ticked("isTest"),
    link: text("link"),
    review: {
      name: text("testimonial.name"),
      job: text("testimonial.job"),
      image: text("testimonial.image"),
      removeImage: ticked("testimonial.removeImage"),
      words: text("testimonial.testimonial"),
    },
    gallery: rowIndices(form, "galleryImages", "image").map((i) => ({
      image: text(`galleryImages.${i}.image`),
      description: text(`galleryImages.${i}.description`),
      remove: ticked(`galleryImages.${i}.remove`),
    })),
    galleryNew: [],
  };
}

/** "Remove the poster and 2 gallery pictures from this event?" for the boxes ticked, or null for none. */
export function removalQuestion(form: FormData, values: EventFormValues): string | null {
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

/**
 * The form's values in the API's shape, for its schemas: London date-times as ISO moments, the cost
 * in pounds (empty: not sold on this site), numbers as numbers, a review only when something of it
 * is filled in, the gallery without the pictures marked for removal. What cannot be read at all is
 * reported here; everything else is left to the schemas, so the rules stay in one place.
 */
export function eventInputFromForm(values: EventFormValues): { input: Record<string, unknown>; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const moment = (field: "eventDate" | "ticketSaleExpiry") => {
    const iso = fromLondonInput(values[field]);
    if (!iso) errors[field] = "must be a date and time";
    return iso ?? "";
  };
  const cost = values.ticketCost.trim().replace(/^£/, "");
  if (cost !== "" && !/^\d+(\.\d{1,2})?$/.test(cost)) {
    errors.ticketCost = "must be an amount in pounds, such as 12.50, or empty when tickets are not sold on this site";
  }
  const tickets = values.totalAvailableTickets.trim();
  if (!/^\d+$/.test(tickets)) errors.totalAvailableTickets = "must be a whole number";
  const review = values.review;
  const reviewImage = review.removeImage ? "" : review.image;
  const hasReview = [review.name, review.job, review.words].some((v) => v.trim() !== "") || reviewImage !== "";
  const input = {
    name: values.name,
    description: values.description,
    posterImage: values.removePoster ? "" : values.posterImage,
    eventDate: moment("eventDate"),
    ticketSaleExpiry: moment("ticketSaleExpiry"),
    location: values.location,
    ticketCost: cost === "" ? null : Number(cost),
    totalAvailableTickets: Number(tickets),
    isTest: values.isTest,
    link: values.link.trim() === "" ? null : values.link.trim(),
    testimonial: hasReview
      ? { name: review.name, job: review.job, image: reviewImage, testimonial: review.words }
      : null,
    galleryImages: values.gallery
      .filter((row) => !row.remove)
      .map((row) => ({ image: row.image, description: row.description })),
  };
  return { input, errors };
}

/**
 * The API's messages keyed for the form: a gallery picture's index in the API's list (which leaves
 * out the pictures marked for removal) becomes its row on the form.
 */
export function formErrors(apiErrors: FieldErrors, values: EventFormValues): FieldErrors {
  const rows = values.gallery.flatMap((row, i) => (row.remove ? [] : [i]));
  return Object.fromEntries(
    Object.entries(apiErrors).map(([field, message]) => {
      const match = /^galleryImages\.(\d+)(\..*)?$/.exec(field);
      const row = match ? rows[Number(match[1])] : undefined;
      return [row === undefined ? field : `galleryImages.${row}${match![2] ?? ""}`, message];
    }),
  );
}

/**
 * The event as its public card would show it with these values, for the form's preview; undefined
 * until it has a name and an event date. `current` (tickets on sale) is judged at `now`, the
 * site's time when the page was served.
 */
export function previewEvent(
  values: EventFormValues,
  id: string,
  now: string,
): { event: EventView; current: boolean } | undefined {
  const eventDate = fromLondonInput(values.eventDate);
  if (values.name.trim() === "" || !eventDate) return undefined;
  const ticketSaleExpiry = fromLondonInput(values.ticketSaleExpiry) ?? eventDate;
  const pence = values.ticketCost.trim() === "" ? null : (parsePence(values.ticketCost) ?? null);
  const event: EventView = {
    id,
    name: values.name.trim(),
    description: values.description.trim(),
    posterImage: values.removePoster ? "" : values.posterImage,
    eventDate,
    location: values.location.trim(),
    ticketCost: pence === null ? null : pence / 100,
    ticketCostPence: pence,
    totalAvailableTickets: Number(values.totalAvailableTickets) || 0,
    ticketSaleExpiry,
    isTest: values.isTest,
    // The card links only where saving would let it: what staff are typing is not yet checked.
    link: isHttpsUrl(values.link.trim()) ? values.link.trim() : null,
    testimonial: null,
    galleryImages: [],
  };
  return { event, current: Date.parse(ticketSaleExpiry) > Date.parse(now) };
}
