import { z } from "zod";
import { httpsUrlField } from "~/lib/links";
import { parsePence } from "~/lib/money";
import { answerTypes, questionLimits, type AnswerType } from "~/lib/questions";
import type { TypeStatus } from "~/lib/ticket-types";

/** Tickets sold and left for one event: all the live feed says, never who bought them. */
export interface Availability {
  /** Seats taken by the tickets sold. */
  sold: number;
  /** Seats nobody has bought or holds in an unfinished checkout. */
  remaining: number;
  /**
   * No ticket can be bought and none will come back on sale by itself: the seats sold have reached
   * the total, or every type the event sells is sold out or over (decision 081).
   */
  soldOut: boolean;
  /**
   * Only when nothing can be bought now but some is held in unfinished checkouts: when the first of
   * those holds runs out (ISO 8601), so the page can say when to try again.
   */
  reservedUntil?: string;
  /** Only when nothing can be bought now but a type goes on sale later: when the first does (ISO 8601). */
  onSaleFrom?: string;
  /** The event's ticket types, when it sells more than one that visitors may choose between. */
  types?: TypeAvailability[];
}

/** A ticket type of an event as visitors see it, live: no more than the pages say. */
export interface TypeAvailability {
  id: string;
  name: string;
  pricePence: number;
  /** Where it stands (typeStanding); `reserved` when the rest of it are held in unfinished checkouts. */
  status: TypeStatus | "reserved";
  /** How many can be chosen now: what is left, never more than one booking may hold (0 unless on sale). */
  left: number;
}

/** An event as pages and the staff API see it, with the specification's field names. */
export interface EventView {
  id: string;
  name: string;
  description: string;
  /** A picture's name (content/images or "uploads/<id>"); "" when the event has no poster. */
  posterImage: string;
  /** ISO 8601 date-time. */
  eventDate: string;
  location: string;
  /** Pounds, as the spec has it; null when tickets are not sold online. */
  ticketCost: number | null;
  ticketCostPence: number | null;
  totalAvailableTickets: number;
  ticketSaleExpiry: string;
  isTest: boolean;
  link: string | null;
  /** `image` is "" when the reviewer has no photo. */
  testimonial: { name: string; job: string; image: string; testimonial: string } | null;
  galleryImages: { image: string; description: string }[];
  /** ISO 8601 date-time when staff cancelled it; absent while it goes ahead. */
  cancelledAt?: string;
  /** How long a waiting-list offer holds its seats, in hours (docs/decisions/086-a-waiting-list.md). */
  waitingListOfferHours?: number;
  /** Hours before the event each booking is sent a reminder; null: none (docs/decisions/096-event-reminders.md). */
  reminderHours?: number | null;
  /** What to bring, for the reminder; "" for nothing to say. */
  whatToBring?: string;
}

const pictureName = /^[a-z0-9-]+(\/[a-z0-9-]+)*$/;
const pictureMessage =
  "must name a picture: one under content/images without its extension (e.g. pages/quiz-night) or one uploaded through POST /api/admin/images (uploads/<id>)";

/** A picture: one under content/images (named without extension) or one staff uploaded ("uploads/<id>"). */
const picture = z.string({ error: pictureMessage }).trim().regex(pictureName, { error: pictureMessage });

/** A picture that may be left out: "" or null means none (stored as ""); pages then show a placeholder. */
const optionalPicture = z
  .union([z.string(), z.null()], { error: `${pictureMessage}, or "" for none` })
  .transform((value) => (value ?? "").trim())
  .refine((value) => value === "" || pictureName.test(value), { error: `${pictureMessage}, or "" for none` });

const dateTime = z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2026-12-05T19:00:00Z" });
const text = (max: number) =>
  z.string().trim().min(1, "must not be blank").max(max, `must be at most ${max} characters`);

const ticketCost = z
  .union([z.number(), z.null()], { error: "must be a number of pounds (e.g. 12.5) or null" })
  .transform((value, ctx) => {
    if (value === null) return null;
    const pence = parsePence(value);
    if (pence === undefined) {
      ctx.addIssue({ code: "custom", message: "must be an amount in pounds, 0 or more, with at most two decimals" });
      return z.NEVER;
    }
    return pence;
  });

/** The most ticket types one event may have. */
export const maxTicketTypes = 20;

const typeWindow = z.union([dateTime, z.null()], {
  error: "must be an ISO 8601 date-time, e.g. 2026-12-05T19:00:00Z, or null for none",
});

/**
 * One ticket type as the staff API takes it (decision 080): a new one (no `id`) needs a name and a
 * price and takes defaults for the rest; one of the event's own (`id`) keeps what is left out.
 */
const ticketTypeInput = z
  .strictObject(
    {
      id: z.uuid({ error: "must be the id of one of the event's ticket types" }).optional(),
      name: text(60).optional(),
      price: z
        .number({ error: "must be a number of pounds (e.g. 12.5), 0 for a free ticket" })
        .transform((value, ctx) => {
          const pence = parsePence(value);
          if (pence === undefined) {
            ctx.addIssue({
              code: "custom",
              message: "must be an amount in pounds, 0 or more, with at most two decimals",
            });
            return z.NEVER;
          }
          return pence;
        })
        .optional(),
      seatsPerTicket: z
        .number({ error: "must be a whole number from 1 to 50" })
        .int("must be a whole number from 1 to 50")
        .min(1, "must be a whole number from 1 to 50")
        .max(50, "must be a whole number from 1 to 50")
        .optional(),
      cap: z
        .union(
          [
            z
              .number()
              .int("must be a whole number")
              .min(1, "must be 1 or more, or null for no limit of its own")
              .max(100_000, "must be at most 100000"),
            z.null(),
          ],
          { error: "must be a whole number, or null for no limit of its own" },
        )
        .optional(),
      saleFrom: typeWindow.optional(),
      saleUntil: typeWindow.optional(),
      hidden: z.boolean({ error: "must be true or false" }).optional(),
      offSale: z.boolean({ error: "must be true or false" }).optional(),
    },
    { error: "must be an object" },
  )
  .superRefine((type, ctx) => {
    if (type.id) return;
    if (type.name === undefined)
      ctx.addIssue({ code: "custom", path: ["name"], message: "must be given for a new ticket type" });
    if (type.price === undefined)
      ctx.addIssue({ code: "custom", path: ["price"], message: "must be given for a new ticket type" });
  });

/** An event's ticket types, in the order visitors see them: the whole list, each by its id or new. */
const ticketTypesField = z
  .array(ticketTypeInput, { error: "must be a list" })
  .max(maxTicketTypes, `must have at most ${maxTicketTypes} types`)
  .check(
    // Run even when a type has a mistake of its own, so every message is given at once: the items
    // may then be as sent, so each is read with care.
    z.superRefine(
      (types: unknown[], ctx) => {
        const names = new Set<string>();
        const ids = new Set<string>();
        types.forEach((type, i) => {
          const { name, id } = (typeof type === "object" && type !== null ? type : {}) as {
            name?: unknown;
            id?: unknown;
          };
          if (typeof name === "string" && name.trim() !== "") {
            const key = name.trim().toLocaleLowerCase("en-GB");
            if (names.has(key)) {
              ctx.addIssue({
                code: "custom",
                path: [i, "name"],
                message: "must differ from the other ticket types' names",
              });
            }
            names.add(key);
          }
          if (typeof id === "string") {
            if (ids.has(id)) ctx.addIssue({ code: "custom", path: [i, "id"], message: "must not name a type twice" });
            ids.add(id);
          }
        });
      },
      { when: (payload) => Array.isArray(payload.value) },
    ),
  );

export type TicketTypeInput = z.output<typeof ticketTypeInput>;

/**
 * One question as the staff API takes it (decision 083): a new one (no `id`) needs its wording and
 * answer type; one of the event's own (`id`) keeps what is left out. `choices` are the list's
 * answers (2 or more, for `choice` only); `asked: false` stops asking it, keeping its answers.
 */
const questionInput = z
  .strictObject(
    {
      id: z.uuid({ error: "must be the id of one of the event's questions" }).optional(),
      question: text(questionLimits.question).optional(),
      answerType: z.enum(answerTypes, { error: `must be one of ${answerTypes.join(", ")}` }).optional(),
      choices: z
        .array(text(questionLimits.choice), { error: "must be a list of answers" })
        .max(questionLimits.choices, `must have at most ${questionLimits.choices} answers`)
        .optional(),
      required: z.boolean({ error: "must be true or false" }).optional(),
      perAttendee: z.boolean({ error: "must be true or false" }).optional(),
      shownAtDoor: z.boolean({ error: "must be true or false" }).optional(),
      asked: z.boolean({ error: "must be true or false" }).optional(),
    },
    { error: "must be an object" },
  )
  .superRefine((item, ctx) => {
    if (
      item.choices &&
      new Set(item.choices.map((choice) => choice.toLocaleLowerCase("en-GB"))).size < item.choices.length
    ) {
      ctx.addIssue({ code: "custom", path: ["choices"], message: "must not list the same answer twice" });
    }
    if (item.id) return;
    if (item.question === undefined)
      ctx.addIssue({ code: "custom", path: ["question"], message: "must be given for a new question" });
    if (item.answerType === undefined)
      ctx.addIssue({ code: "custom", path: ["answerType"], message: "must be given for a new question" });
  });

export type QuestionInput = z.output<typeof questionInput>;

/** An event's questions, in the order the booking page asks them: the whole list, each by its id or new. */
const questionsField = z
  .array(questionInput, { error: "must be a list" })
  .max(questionLimits.questions, `must have at most ${questionLimits.questions} questions`);

/** An event's question as staff see it (its page, the staff API). */
export interface StaffQuestion {
  id: string;
  question: string;
  answerType: AnswerType;
  choices: string[];
  required: boolean;
  perAttendee: boolean;
  shownAtDoor: boolean;
  /** False once staff stopped asking it (its answers are kept). */
  asked: boolean;
  position: number;
  /** Bookings that answered it: then it can be reworded, not deleted. */
  answered: number;
}

const eventFields = {
  name: text(120),
  description: text(2000),
  posterImage: optionalPicture,
  eventDate: dateTime,
  location: z.string().trim().max(200, "must be at most 200 characters"),
  ticketCost,
  totalAvailableTickets: z
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(0, "must be 0 or more")
    .max(100_000, "must be at most 100000"),
  ticketSaleExpiry: dateTime,
  isTest: z.boolean({ error: "must be true or false" }),
  link: z.union([
    httpsUrlField("must be an address starting with https://, e.g. https://tickets.example.org/quiz-night"),
    z.null(),
  ]),
  testimonial: z.union([
    z.object(
      { name: text(80), job: text(120), image: optionalPicture.default(""), testimonial: text(1000) },
      { error: "must be an object" },
    ),
    z.null(),
  ]),
  galleryImages: z
    .array(z.object({ image: picture, description: text(300) }), { error: "must be a list" })
    .max(24, "must have at most 24 pictures"),
  ticketTypes: ticketTypesField,
  waitingListOfferHours: z
    .number({ error: "must be a whole number of hours" })
    .int("must be a whole number of hours")
    .min(1, "must be at least 1 hour")
    .max(336, "must be at most 336 hours (two weeks)"),
  reminderHours: z.union([
    z
      .number({ error: "must be a whole number of hours, or null for no reminder" })
      .int("must be a whole number of hours, or null for no reminder")
      .min(1, "must be at least 1 hour")
      .max(336, "must be at most 336 hours (two weeks)"),
    z.null(),
  ]),
  whatToBring: z.string({ error: "must be text" }).trim().max(500, "must be at most 500 characters"),
  questions: questionsField,
};

/** With `ticketTypes`, each type has its own price: `ticketCost` is then only null (not sold on this site) or left out. */
const pricesFromTypes = z.superRefine(
  (event: { ticketCost?: unknown; ticketTypes?: unknown }, ctx) => {
    if (event.ticketTypes !== undefined && typeof event.ticketCost === "number") {
      ctx.addIssue({
        code: "custom",
        path: ["ticketCost"],
        message:
          "must be left out when ticketTypes is given: each type has its own price (null: not sold on this site)",
      });
    }
  },
  { when: (payload) => typeof payload.value === "object" && payload.value !== null },
);

/** POST /api/admin/events: a new event. Optional fields default to empty. */
export const newEventSchema = z
  .strictObject({
    ...eventFields,
    posterImage: eventFields.posterImage.default(""),
    location: eventFields.location.default(""),
    isTest: eventFields.isTest.default(false),
    link: eventFields.link.default(null),
    testimonial: eventFields.testimonial.default(null),
    galleryImages: eventFields.galleryImages.default([]),
    ticketCost: eventFields.ticketCost.optional(),
    ticketTypes: eventFields.ticketTypes.optional(),
    waitingListOfferHours: eventFields.waitingListOfferHours.default(24),
    reminderHours: eventFields.reminderHours.default(48),
    whatToBring: eventFields.whatToBring.default(""),
    questions: eventFields.questions.optional(),
  })
  .check(
    z.superRefine(
      (event: { ticketCost?: unknown; ticketTypes?: unknown }, ctx) => {
        // Without ticketTypes the price is the event's one ticket's, as it always was: it must be given.
        if (event.ticketTypes === undefined && event.ticketCost === undefined) {
          ctx.addIssue({
            code: "custom",
            path: ["ticketCost"],
            message: "must be a number of pounds (e.g. 12.5) or null",
          });
        }
      },
      { when: (payload) => typeof payload.value === "object" && payload.value !== null },
    ),
    pricesFromTypes,
  )
  .refine((e) => new Date(e.ticketSaleExpiry) <= new Date(e.eventDate), {
    path: ["ticketSaleExpiry"],
    message: "must not be after eventDate",
  });

/** PATCH /api/admin/events/:id: any subset of the fields. */
export const eventChangesSchema = z.strictObject(eventFields).partial().check(pricesFromTypes);

export type NewEvent = z.output<typeof newEventSchema>;
export type EventChanges = z.output<typeof eventChangesSchema>;

/**
 * An event's ticket type as staff see it (its staff page, the staff API): its fields, what of it is
 * sold and held, and where it stands now (typeStanding).
 */
export interface StaffTicketType {
  id: string;
  name: string;
  /** Pounds, as the API speaks. */
  price: number;
  pricePence: number;
  seatsPerTicket: number;
  /** Tickets of this type at most; null when only the event's seats limit it. */
  cap: number | null;
  saleFrom: string | null;
  saleUntil: string | null;
  hidden: boolean;
  offSale: boolean;
  offSaleAt: string | null;
  /** When an early-bird price reached its cap and closed for good; it never re-opens. */
  closedAt: string | null;
  position: number;
  /** Tickets sold (valid, less those refunded) and held in checkouts that still count. */
  sold: number;
  held: number;
  /** Tickets of it that can still be bought; null when it is off sale or its sale is over. */
  left: number | null;
  status: TypeStatus;
  /** Whether any booking ever held tickets of it: then it can be taken off sale but not deleted. */
  booked: boolean;
}
