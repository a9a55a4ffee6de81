import { fromLondonInput, londonInputValue } from "~/lib/london-time";
import type { FieldErrors } from "~/lib/errors";
import { isHttpsUrl } from "~/lib/links";
import { parsePence } from "~/lib/money";
import { answerTypes, type AnswerType } from "~/lib/questions";
import { defaultReminderHours } from "~/lib/reminders";
import type { EventView, StaffQuestion, StaffTicketType } from "./schema";

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
  ticketTypes: "Ticket types",
  notSoldHere: "Not sold on this site",
  waitingListOfferHours: "Waiting list offer (hours)",
  reminderHours: "Reminder e-mail",
  whatToBring: "What to bring",
  questions: "Questions",
} as const;

export type EventFormField = keyof typeof eventFormLabels;

/** A ticket type's fields on the form, with the labels staff see (the labels are a contract: issue 33). */
export const ticketTypeLabels = {
  id: "Ticket type",
  name: "Name",
  price: "Price (£)",
  seatsPerTicket: "Seats per ticket",
  cap: "Tickets of this type",
  saleFrom: "On sale from",
  saleUntil: "On sale until",
  hidden: "Hidden",
  offSale: "Off sale",
  remove: "Delete this type",
} as const;

export type TicketTypeField = keyof typeof ticketTypeLabels;

/** A question's fields on the form, with the labels staff see (issue 33, decision 083). */
export const questionLabels = {
  id: "Question",
  question: "Question",
  answerType: "Answer type",
  choices: "Choices",
  required: "Required",
  perAttendee: "Ask each attendee",
  shownAtDoor: "Show at the door",
  notAsked: "No longer asked",
  remove: "Delete this question",
} as const;

export type QuestionField = keyof typeof questionLabels;

/** The element id of a field, by the key its message comes under ("galleryImages.0.description"). */
export const eventFieldId = (field: string) => `event-${field.replace(/\./g, "-")}`;

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
  const question = /^questions\.(\d+)(?:\.(\w+))?$/.exec(field);
  if (question) {
    const which = `question ${Number(question[1]) + 1}`;
    const part = question[2] as QuestionField | undefined;
    if (!part || part === "id" || part === "question" || !(part in questionLabels)) return `Q${which.slice(1)}`;
    return `${questionLabels[part]} of ${which}`;
  }
  const type = /^ticketTypes\.(\d+)(?:\.(\w+))?$/.exec(field);
  if (type) {
    const which = `ticket type ${Number(type[1]) + 1}`;
    const part = type[2] as TicketTypeField | undefined;
    if (!part || part === "id" || !(part in ticketTypeLabels)) return `T${which.slice(1)}`;
    // "Tickets of this type of ticket type 1" would read badly.
    return part === "cap" ? `Tickets of ${which}` : `${ticketTypeLabels[part]} of ${which}`;
  }
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
    ["waitingListOfferHours", "waitingListOfferHours"],
    ["reminderHours", "reminderHours"],
    ["whatToBring", "whatToBring"],
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

/** A ticket type as the form shows it: its fields as typed, London times for its sale window. */
export interface TicketTypeRow {
  /** The saved type's id; "" for one added on this form. */
  id: string;
  name: string;
  price: string;
  seatsPerTicket: string;
  /** Tickets of this type ("" for no limit of its own). */
  cap: string;
  saleFrom: string;
  saleUntil: string;
  hidden: boolean;
  offSale: boolean;
  /** Delete this type (one never booked) on saving. */
  remove: boolean;
}

export const blankTypeRow: TicketTypeRow = {
  id: "",
  name: "",
  price: "",
  seatsPerTicket: "1",
  cap: "",
  saleFrom: "",
  saleUntil: "",
  hidden: false,
  offSale: false,
  remove: false,
};

/** A question as the form shows it: its choices one per line. */
export interface QuestionRow {
  /** The saved question's id; "" for one added on this form. */
  id: string;
  question: string;
  answerType: AnswerType;
  /** The list's answers, one per line (for One of a list). */
  choices: string;
  required: boolean;
  perAttendee: boolean;
  shownAtDoor: boolean;
  /** Kept, with its answers, but no longer asked of visitors. */
  notAsked: boolean;
  /** Delete this question (one never answered) on saving. */
  remove: boolean;
}

export const blankQuestionRow: QuestionRow = {
  id: "",
  question: "",
  answerType: "text",
  choices: "",
  required: false,
  perAttendee: false,
  shownAtDoor: false,
  notAsked: false,
  remove: false,
};

/** A saved question's row on the form. */
export function questionRow(question: StaffQuestion): QuestionRow {
  return {
    id: question.id,
    question: question.question,
    answerType: question.answerType,
    choices: question.choices.join("\n"),
    required: question.required,
    perAttendee: question.perAttendee,
    shownAtDoor: question.shownAtDoor,
    notAsked: !question.asked,
    remove: false,
  };
}

/** The form with one more question to fill in (`Add a question`). */
export function withNewQuestionRow(values: EventFormValues): EventFormValues {
  return { ...values, questions: [...values.questions, { ...blankQuestionRow }] };
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
  /** How long a waiting-list offer holds its seats, in hours (decision 086). */
  waitingListOfferHours: string;
  /** Hours before the event each booking is reminded, "" for none (decision 096). */
  reminderHours: string;
  whatToBring: string;
  isTest: boolean;
  link: string;
  review: { name: string; job: string; image: string; removeImage: boolean; words: string };
  gallery: GalleryRow[];
  /** Pictures being added whose file was refused: their captions, shown again beside the message. */
  galleryNew: { description: string }[];
  /**
   * The event's ticket types (decision 080). While there are none, `ticketCost` prices the event's
   * one ticket; once there are, each type has its own price and `ticketCost` is not on the form.
   */
  ticketTypes: TicketTypeRow[];
  /** With ticket types: tickets are not sold on this site (the types are kept). */
  notSoldHere: boolean;
  /** The questions the booking page asks (decision 083). */
  questions: QuestionRow[];
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
  waitingListOfferHours: "24",
  reminderHours: String(defaultReminderHours),
  whatToBring: "",
  isTest: false,
  link: "",
  review: { name: "", job: "", image: "", removeImage: false, words: "" },
  gallery: [],
  galleryNew: [],
  ticketTypes: [],
  notSoldHere: false,
  questions: [],
};

/** A saved type's row on the form. */
export function ticketTypeRow(type: StaffTicketType): TicketTypeRow {
  return {
    id: type.id,
    name: type.name,
    price: (type.pricePence / 100).toFixed(2),
    seatsPerTicket: String(type.seatsPerTicket),
    cap: type.cap === null ? "" : String(type.cap),
    saleFrom: type.saleFrom ? londonInputValue(type.saleFrom) : "",
    saleUntil: type.saleUntil ? londonInputValue(type.saleUntil) : "",
    hidden: type.hidden,
    offSale: type.offSale,
    remove: false,
  };
}

export function eventFormValues(
  event: EventView,
  types: StaffTicketType[] = [],
  questions: StaffQuestion[] = [],
): EventFormValues {
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
    waitingListOfferHours: String(event.waitingListOfferHours ?? 24),
    reminderHours: event.reminderHours === undefined ? String(defaultReminderHours) : String(event.reminderHours ?? ""),
    whatToBring: event.whatToBring ?? "",
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
    ticketTypes: types.map(ticketTypeRow),
    notSoldHere: types.length > 0 && event.ticketCostPence === null,
    questions: questions.map(questionRow),
  };
}

/**
 * The form with one more ticket type to fill in (`Add a ticket type`). On a form with none yet,
 * the ticket cost typed becomes the first type, named Ticket, so nothing typed is lost.
 */
export function withNewTypeRow(values: EventFormValues): EventFormValues {
  const cost = values.ticketCost.trim();
  const first =
    values.ticketTypes.length === 0 && cost !== "" ? [{ ...blankTypeRow, name: "Ticket", price: cost }] : [];
  return { ...values, ticketCost: "", ticketTypes: [...values.ticketTypes, ...first, { ...blankTypeRow }] };
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
    waitingListOfferHours: text("waitingListOfferHours"),
    reminderHours: text("reminderHours"),
    whatToBring: text("whatToBring"),
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
    ticketTypes: rowIndices(form, "ticketTypes", "name").map((i) => ({
      id: text(`ticketTypes.${i}.id`).slice(0, 40),
      name: text(`ticketTypes.${i}.name`),
      price: text(`ticketTypes.${i}.price`),
      seatsPerTicket: text(`ticketTypes.${i}.seatsPerTicket`),
      cap: text(`ticketTypes.${i}.cap`),
      saleFrom: text(`ticketTypes.${i}.saleFrom`),
      saleUntil: text(`ticketTypes.${i}.saleUntil`),
      hidden: ticked(`ticketTypes.${i}.hidden`),
      offSale: ticked(`ticketTypes.${i}.offSale`),
      remove: ticked(`ticketTypes.${i}.remove`),
    })),
    notSoldHere: ticked("notSoldHere"),
    questions: rowIndices(form, "questions", "question").map((i) => {
      const answerType = text(`questions.${i}.answerType`);
      return {
        id: text(`questions.${i}.id`).slice(0, 40),
        question: text(`questions.${i}.question`),
        answerType: (answerTypes as readonly string[]).includes(answerType) ? (answerType as AnswerType) : "text",
        choices: text(`questions.${i}.choices`),
        required: ticked(`questions.${i}.required`),
        perAttendee: ticked(`questions.${i}.perAttendee`),
        shownAtDoor: ticked(`questions.${i}.shownAtDoor`),
        notAsked: ticked(`questions.${i}.notAsked`),
        remove: ticked(`questions.${i}.remove`),
      };
    }),
  };
}

/** The question rows saved: not deleted, not added and left empty, with their place on the form. */
export function keptQuestionRows(values: EventFormValues): { row: QuestionRow; index: number }[] {
  return values.questions.flatMap((row, index) =>
    row.remove || (row.id === "" && row.question.trim() === "" && row.choices.trim() === "") ? [] : [{ row, index }],
  );
}

/** A row added on the form and left empty: not a type, and not saved. */
function isBlankRow(row: TicketTypeRow): boolean {
  return (
    row.id === "" &&
    !row.hidden &&
    !row.offSale &&
    [row.name, row.price, row.cap, row.saleFrom, row.saleUntil].every((value) => value.trim() === "")
  );
}

/** The rows that are saved as the event's types, with their place on the form: not deleted, not left empty. */
export function keptTypeRows(values: EventFormValues): { row: TicketTypeRow; index: number }[] {
  return values.ticketTypes.flatMap((row, index) => (row.remove || isBlankRow(row) ? [] : [{ row, index }]));
}

const moneyPattern = /^\d+(\.\d{1,2})?$/;

const listed = (parts: string[]) =>
  parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;

/**
 * The question asked before saving removals: "Remove the poster and 2 gallery pictures from this
 * event?", "Delete the ticket type “Child”?", for the boxes ticked; null for none.
 */
export function removalQuestion(
  form: FormData,
  values: EventFormValues,
): { title: string; message: string; confirm: string } | null {
  const posted = eventFormFromPost(form);
  const parts: string[] = [];
  if (posted.removePoster && values.posterImage) parts.push("the poster");
  if (posted.review.removeImage && values.review.image) parts.push("the reviewer's photo");
  const pictures = posted.gallery.filter((row) => row.remove).length;
  if (pictures > 0) parts.push(pictures === 1 ? "1 gallery picture" : `${pictures} gallery pictures`);
  // Only saved types: a row added on this form and ticked is simply not saved.
  const types = posted.ticketTypes
    .filter((row) => row.remove && row.id !== "")
    .map((row) => `“${values.ticketTypes.find((saved) => saved.id === row.id)?.name ?? row.name}”`);
  // Saved questions ticked for deletion.
  const questions = posted.questions
    .filter((row) => row.remove && row.id !== "")
    .map((row) => `“${values.questions.find((saved) => saved.id === row.id)?.question ?? row.question}”`);
  if (questions.length > 0) {
    const which = questions.length === 1 ? `the question ${questions[0]}` : `the questions ${listed(questions)}`;
    if (parts.length === 0 && types.length === 0) {
      return {
        title: questions.length === 1 ? "Delete a question?" : "Delete questions?",
        message: `Delete ${which} from this event? Once saved, visitors are no longer asked ${questions.length === 1 ? "it" : "them"}.`,
        confirm: "Delete and save",
      };
    }
    parts.push(which);
  }
  if (parts.length === 0 && types.length === 0) return null;
  const typeWords = types.length === 1 ? `the ticket type ${types[0]}` : `the ticket types ${listed(types)}`;
  if (parts.length === 0) {
    return {
      title: "Delete ticket types?",
      message: `Delete ${typeWords} from this event? Once saved, ${types.length === 1 ? "it is" : "they are"} gone and visitors can no longer buy ${types.length === 1 ? "it" : "them"}.`,
      confirm: "Delete and save",
    };
  }
  const them = parts.length === 1 && pictures <= 1 && types.length === 0 ? "it" : "them";
  return {
    title: types.length === 0 ? "Remove pictures?" : "Remove pictures and ticket types?",
    message:
      types.length === 0
        ? `Remove ${listed(parts)} from this event? Once saved, visitors no longer see ${them}.`
        : `Remove ${listed(parts)} and delete ${typeWords} from this event? Once saved, visitors no longer see them.`,
    confirm: "Remove and save",
  };
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
  const typed = values.ticketTypes.length > 0;
  if (typed && cost !== "") {
    errors.ticketCost = "must be left empty when the event has ticket types: each type has its own price";
  } else if (cost !== "" && !moneyPattern.test(cost)) {
    errors.ticketCost = "must be an amount in pounds, such as 12.50, or empty when tickets are not sold on this site";
  }
  const tickets = values.totalAvailableTickets.trim();
  if (!/^\d+$/.test(tickets)) errors.totalAvailableTickets = "must be a whole number";
  const offerHours = (values.waitingListOfferHours ?? "").trim() || "24";
  if (!/^\d+$/.test(offerHours)) errors.waitingListOfferHours = "must be a whole number of hours";
  const reminder = (values.reminderHours ?? "").trim();
  if (reminder !== "" && !/^\d+$/.test(reminder)) errors.reminderHours = "must be a whole number of hours";
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
    ...(typed
      ? { ...(values.notSoldHere && { ticketCost: null }), ticketTypes: ticketTypesInput(values, errors) }
      : { ticketCost: cost === "" ? null : Number(cost) }),
    // The whole list, once the form has any: a saved question left out would be deleted.
    ...(values.questions.length > 0 && { questions: questionsInput(values) }),
    totalAvailableTickets: Number(tickets),
    waitingListOfferHours: Number(offerHours),
    reminderHours: reminder === "" ? null : Number(reminder),
    whatToBring: values.whatToBring ?? "",
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

/** The rows kept as the API's `questions`: the choices one per line, blank lines left out. */
function questionsInput(values: EventFormValues): Record<string, unknown>[] {
  return keptQuestionRows(values).map(({ row }) => ({
    ...(row.id !== "" && { id: row.id }),
    question: row.question,
    answerType: row.answerType,
    choices:
      row.answerType === "choice"
        ? row.choices
            .split(/\r?\n/)
            .map((line) => line.trim())
            .filter((line) => line !== "")
        : [],
    required: row.required,
    perAttendee: row.perAttendee,
    shownAtDoor: row.shownAtDoor,
    asked: !row.notAsked,
  }));
}

/** The rows kept as the API's `ticketTypes`; what cannot be read is reported under its row. */
function ticketTypesInput(values: EventFormValues, errors: FieldErrors): Record<string, unknown>[] {
  return keptTypeRows(values).map(({ row, index }) => {
    const at = (field: TicketTypeField) => `ticketTypes.${index}.${field}`;
    const price = row.price.trim().replace(/^£/, "");
    if (!moneyPattern.test(price)) errors[at("price")] = "must be an amount in pounds, such as 12.50, or 0 for free";
    const seats = row.seatsPerTicket.trim();
    if (!/^\d{1,3}$/.test(seats)) errors[at("seatsPerTicket")] = "must be a whole number from 1 to 50";
    const cap = row.cap.trim();
    if (cap !== "" && !/^\d{1,7}$/.test(cap)) {
      errors[at("cap")] = "must be a whole number, or empty for no limit of its own";
    }
    const moment = (field: "saleFrom" | "saleUntil") => {
      if (row[field].trim() === "") return null;
      const iso = fromLondonInput(row[field]);
      if (!iso) errors[at(field)] = "must be a date and time, or empty";
      return iso ?? null;
    };
    return {
      ...(row.id !== "" && { id: row.id }),
      name: row.name,
      price: Number(price),
      seatsPerTicket: Number(seats),
      cap: cap === "" ? null : Number(cap),
      saleFrom: moment("saleFrom"),
      saleUntil: moment("saleUntil"),
      hidden: row.hidden,
      // Only a saved type can be off sale: a new one ticked Off sale is saved off sale.
      offSale: row.offSale,
    };
  });
}

/**
 * The API's messages keyed for the form: a gallery picture's or a ticket type's index in the API's
 * list (which leaves out the rows marked for removal) becomes its row on the form.
 */
export function formErrors(apiErrors: FieldErrors, values: EventFormValues): FieldErrors {
  const rows = {
    galleryImages: values.gallery.flatMap((row, i) => (row.remove ? [] : [i])),
    ticketTypes: keptTypeRows(values).map(({ index }) => index),
    questions: keptQuestionRows(values).map(({ index }) => index),
  };
  return Object.fromEntries(
    Object.entries(apiErrors).map(([field, message]) => {
      const match = /^(galleryImages|ticketTypes|questions)\.(\d+)(\..*)?$/.exec(field);
      const list = match?.[1] as keyof typeof rows | undefined;
      const row = match && list ? rows[list][Number(match[2])] : undefined;
      return [row === undefined ? field : `${list}.${row}${match![3] ?? ""}`, message];
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
  const pence =
    values.ticketTypes.length > 0
      ? typedPrice(values)
      : values.ticketCost.trim() === ""
        ? null
        : (parsePence(values.ticketCost) ?? null);
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

/** The price the card shows for the types typed: the lowest of those on sale and shown, as the site keeps it. */
function typedPrice(values: EventFormValues): number | null {
  if (values.notSoldHere) return null;
  const kept = keptTypeRows(values).map(({ row }) => row);
  const shown = kept.filter((row) => !row.hidden && !row.offSale);
  const prices = (shown.length > 0 ? shown : kept).flatMap((row) => {
    const pence = parsePence(row.price);
    return pence === undefined ? [] : [pence];
  });
  return prices.length > 0 ? Math.min(...prices) : null;
}
