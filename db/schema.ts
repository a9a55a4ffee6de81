import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** A member of staff's role; what each may do is app/features/staff/roles.ts. */
type StaffRole = "owner" | "treasurer" | "events" | "door";

// The site's tables. Column names are ours (snake_case); the JSON the pages see uses the
// specification's field names, mapped in each feature's .server.ts module.
// Migrations are generated from this file with `npm run db:generate` and applied at start-up.

export const volunteers = pgTable(
  "volunteers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    reason: text("reason").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("volunteers_created_at_idx").on(t.createdAt),
    check("volunteers_name_length", sql`char_length(${t.name}) between 1 and 80`),
    check("volunteers_email_length", sql`char_length(${t.email}) between 3 and 100`),
    check("volunteers_reason_length", sql`char_length(${t.reason}) between 1 and 200`),
  ],
);

/** A fundraising event. `ticket_cost_pence` null means it is not bookable online (see `link`). */
export const events = pgTable(
  "events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    posterImage: text("poster_image").notNull(),
    eventDate: timestamp("event_date", { withTimezone: true }).notNull(),
    location: text("location").notNull().default(""),
    ticketCostPence: integer("ticket_cost_pence"),
    totalAvailableTickets: integer("total_available_tickets").notNull(),
    ticketSaleExpiry: timestamp("ticket_sale_expiry", { withTimezone: true }).notNull(),
    isTest: boolean("is_test").notNull().default(false),
    link: text("link"),
    testimonial: jsonb("testimonial").$type<EventTestimonial>(),
    gallery: jsonb("gallery").$type<EventGalleryImage[]>().notNull().default([]),
    /** When staff cancelled it: sales stop, the public pages say Cancelled, every paid booking is refunded. */
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** Why, in staff's words, for the buyers' e-mail. */
    cancelReason: text("cancel_reason"),
    /** How long a waiting-list offer holds its seats, in hours (docs/decisions/086-a-waiting-list.md). */
    waitingListOfferHours: integer("waiting_list_offer_hours").notNull().default(24),
    /**
     * How long before the event each booking is sent its reminder, in hours; null: no reminders
     * (docs/decisions/096-event-reminders.md).
     */
    reminderHours: integer("reminder_hours").default(48),
    /** What to bring, in staff's words, for the reminder ("" for nothing to say). */
    whatToBring: text("what_to_bring").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("events_event_date_idx").on(t.eventDate),
    check("events_ticket_cost_not_negative", sql`${t.ticketCostPence} is null or ${t.ticketCostPence} >= 0`),
    check("events_total_tickets_not_negative", sql`${t.totalAvailableTickets} >= 0`),
    check("events_waiting_list_offer_hours_range", sql`${t.waitingListOfferHours} between 1 and 336`),
    check("events_reminder_hours_range", sql`${t.reminderHours} is null or ${t.reminderHours} between 1 and 336`),
  ],
);

export interface EventTestimonial {
  name: string;
  job: string;
  image: string;
  testimonial: string;
}

export interface EventGalleryImage {
  image: string;
  description: string;
}

/** The specification's ticket record: created only from a paid booking, one per booking reference. */
export const tickets = pgTable(
  "tickets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ticketHolderName: text("ticket_holder_name").notNull(),
    email: text("email").notNull(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "restrict" }),
    bookingRef: uuid("booking_ref").notNull().unique(),
    isValid: boolean("is_valid").notNull().default(true),
    quantity: integer("quantity").notNull(),
    dateSold: timestamp("date_sold", { withTimezone: true }).notNull(),
    /** When the first of the group came through the door. */
    checkedInAt: timestamp("checked_in_at", { withTimezone: true }),
    /** How many of the group have come through the door (staff may check in part of a group). */
    checkedInCount: integer("checked_in_count").notNull().default(0),
  },
  (t) => [
    index("tickets_event_id_idx").on(t.eventId),
    check("tickets_quantity_positive", sql`${t.quantity} >= 1`),
    check("tickets_checked_in_count_range", sql`${t.checkedInCount} between 0 and ${t.quantity}`),
  ],
);

/**
 * Every check-in at the door: who was let in, how many, by which staff member, on which device and
 * when. The id is chosen by the device, so a check-in queued offline and sent twice is recorded
 * once. `outcome` is `checked-in`, or `conflict` when the places had already been used (two
 * offline devices let in the same ticket), or `refunded` when the booking was refunded meanwhile.
 */
export const checkIns = pgTable(
  "check_ins",
  {
    id: uuid("id").primaryKey(),
    bookingRef: uuid("booking_ref")
      .notNull()
      .references(() => tickets.bookingRef, { onDelete: "restrict" }),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "restrict" }),
    count: integer("count").notNull(),
    staffUserId: uuid("staff_user_id").references(() => staffUsers.id, { onDelete: "set null" }),
    staffEmail: text("staff_email").notNull(),
    device: text("device").notNull(),
    /** When staff let them in, by the device (which may have been offline). */
    scannedAt: timestamp("scanned_at", { withTimezone: true }).notNull(),
    /** When the server recorded it, by the site's clock. */
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull(),
    outcome: text("outcome").notNull(),
  },
  (t) => [
    index("check_ins_event_recorded_idx").on(t.eventId, t.recordedAt),
    index("check_ins_booking_ref_idx").on(t.bookingRef),
    check("check_ins_count_positive", sql`${t.count} >= 1`),
    check("check_ins_outcome_known", sql`${t.outcome} in ('checked-in', 'conflict', 'refunded')`),
  ],
);

/** Charity staff who run events; passwords are stored as scrypt hashes. */
export const staffUsers = pgTable("staff_users", {
  id: uuid("id").primaryKey().defaultRandom(),
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  /** What this member may do: app/features/staff/roles.ts. Accounts made before roles are Owners. */
  role: text("role").$type<StaffRole>().notNull().default("owner"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
  /** The sign-in before the latest: the staff home counts what is new since then. */
  previousSignInAt: timestamp("previous_sign_in_at", { withTimezone: true }),
});

/**
 * A one-time link that lets a new member of staff choose their own password. The e-mail carries the
 * token; only its SHA-256 is kept. It works once, until `expires_at`.
 */
export const staffInvitations = pgTable(
  "staff_invitations",
  {
    tokenHash: text("token_hash").primaryKey(),
    email: text("email").notNull(),
    invitedByEmail: text("invited_by_email").notNull(),
    /** `invitation` makes a new account; `reset` sets a new password on an existing one. */
    purpose: text("purpose").$type<"invitation" | "reset">().notNull().default("invitation"),
    /** The role an invitation gives the new account (a reset keeps the account's own). */
    role: text("role").$type<StaffRole>().notNull().default("owner"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("staff_invitations_email_idx").on(t.email)],
);

/** A signed-in staff member's session; the cookie holds a random token, the table only its SHA-256. */
export const staffSessions = pgTable(
  "staff_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => staffUsers.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("staff_sessions_user_id_idx").on(t.userId)],
);

/**
 * One attempt to buy tickets. Seats are held while `status` is `held` and `hold_expires_at` is in
 * the future, and for a settling window after it while its payment may be on its way (decision
 * 030); then an expired hold simply stops counting. A booking becomes `paid` (and gets its ticket)
 * only once the payment provider says the payment succeeded.
 */
export const bookings = pgTable(
  "bookings",
  {
    bookingRef: uuid("booking_ref").primaryKey(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "restrict" }),
    holderName: text("holder_name").notNull(),
    email: text("email").notNull(),
    /** Tickets in the booking, of every type (1 to 29). */
    quantity: integer("quantity").notNull(),
    /** Seats those tickets take (a table of eight is one ticket and eight seats): what holds count. */
    seats: integer("seats").notNull(),
    amountPence: integer("amount_pence").notNull(),
    status: text("status").notNull(),
    holdExpiresAt: timestamp("hold_expires_at", { withTimezone: true }).notNull(),
    provider: text("provider").notNull(),
    providerPaymentId: text("provider_payment_id").unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** The card it was paid with, where the provider says (for the receipt): brand and last four digits. */
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    /** Money given back so far (partial or full refunds); what was taken is amount_pence less this. */
    refundedPence: integer("refunded_pence").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
    /**
     * Who started the attempt, as a keyed hash of their network address (never the address itself):
     * it limits what one address can hold and how often it starts payments (decision 026). Emptied
     * when the person's data is erased.
     */
    clientKey: text("client_key"),
    /**
     * When the first of the visitor's consecutive attempts for these seats was held (a renewed hold
     * keeps it), so renewing cannot hold seats past a cap; null for attempts made before it was kept.
     */
    firstHeldAt: timestamp("first_held_at", { withTimezone: true }),
    /** The promo code the booking used (decision 084); one booking is one use of it. */
    promoCodeId: uuid("promo_code_id").references((): AnyPgColumn => promoCodes.id, { onDelete: "restrict" }),
    /** What the code took off the tickets, in pence (the items keep the prices paid). */
    discountPence: integer("discount_pence").notNull().default(0),
  },
  (t) => [
    index("bookings_event_status_idx").on(t.eventId, t.status),
    index("bookings_promo_code_idx").on(t.promoCodeId),
    index("bookings_email_idx").on(t.email),
    index("bookings_client_key_idx").on(t.clientKey),
    index("bookings_created_at_idx").on(t.createdAt),
    check("bookings_refunded_range", sql`${t.refundedPence} between 0 and ${t.amountPence}`),
    check("bookings_quantity_range", sql`${t.quantity} between 1 and 29`),
    check("bookings_amount_not_negative", sql`${t.amountPence} >= 0`),
    check("bookings_seats_at_least_quantity", sql`${t.seats} >= ${t.quantity}`),
    check(
      "bookings_status_known",
      sql`${t.status} in ('held', 'paid', 'cancelled', 'refund_pending', 'refunded', 'failed')`,
    ),
  ],
);

/**
 * What an event sells (decision 078): Adult, Child, Table of 8, an early-bird price. Every type's
 * seats come out of the event's one cap (`events.total_available_tickets`); `cap` is the type's own
 * limit on tickets, within it. A type that has sold is never deleted, only taken off sale.
 */
export const ticketTypes = pgTable(
  "ticket_types",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "restrict" }),
    name: text("name").notNull(),
    /** The price of one ticket from now on; tickets already sold keep theirs (`booking_items`). */
    pricePence: integer("price_pence").notNull(),
    seatsPerTicket: integer("seats_per_ticket").notNull().default(1),
    /** At most this many tickets of this type (null: only the event's seats limit it). */
    cap: integer("cap"),
    saleFrom: timestamp("sale_from", { withTimezone: true }),
    saleUntil: timestamp("sale_until", { withTimezone: true }),
    /** Shown only to a buyer who enters a code that reveals it. */
    hidden: boolean("hidden").notNull().default(false),
    /** When staff took it off sale (what deleting a type that has sold does instead). */
    offSaleAt: timestamp("off_sale_at", { withTimezone: true }),
    /**
     * When a type with an end to its sale (an early-bird price) reached its cap: it is closed for good
     * and never comes back, even if a ticket of it is refunded or a hold runs out.
     */
    closedAt: timestamp("closed_at", { withTimezone: true }),
    position: integer("position").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("ticket_types_event_idx").on(t.eventId, t.position),
    check("ticket_types_price_not_negative", sql`${t.pricePence} >= 0`),
    check("ticket_types_seats_range", sql`${t.seatsPerTicket} between 1 and 50`),
    check("ticket_types_cap_not_negative", sql`${t.cap} is null or ${t.cap} >= 0`),
  ],
);

/**
 * A promo code (decision 084): staff make it for one event or all (`event_id` null); it takes a
 * percentage or a fixed amount off each ticket of the types it covers (`ticket_type_ids`, empty:
 * every type), or makes them free (a complimentary ticket). `code` is kept in capitals, so it is
 * unique and matches whatever case a buyer types. A use is a booking that counts (held, paid, or
 * waiting for a refund); `max_uses` caps them.
 */
export const promoCodes = pgTable(
  "promo_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    code: text("code").notNull().unique(),
    eventId: uuid("event_id").references(() => events.id, { onDelete: "restrict" }),
    kind: text("kind").$type<"percent" | "fixed" | "free">().notNull(),
    percentOff: integer("percent_off"),
    amountOffPence: integer("amount_off_pence"),
    ticketTypeIds: jsonb("ticket_type_ids").$type<string[]>().notNull().default([]),
    maxUses: integer("max_uses"),
    validUntil: timestamp("valid_until", { withTimezone: true }),
    /** When staff switched it off; a code switched off takes no new bookings. */
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    createdByEmail: text("created_by_email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("promo_codes_event_idx").on(t.eventId),
    check("promo_codes_kind_known", sql`${t.kind} in ('percent', 'fixed', 'free')`),
    check("promo_codes_percent_range", sql`${t.percentOff} is null or ${t.percentOff} between 1 and 100`),
    check("promo_codes_amount_positive", sql`${t.amountOffPence} is null or ${t.amountOffPence} > 0`),
    check("promo_codes_max_uses_positive", sql`${t.maxUses} is null or ${t.maxUses} >= 1`),
  ],
);

/**
 * The tickets of each type in a booking, at the price and size they were held at. `refunded` counts
 * the tickets of the type given back (a refund frees their seats and the type's place).
 */
export const bookingItems = pgTable(
  "booking_items",
  {
    bookingRef: uuid("booking_ref")
      .notNull()
      .references(() => bookings.bookingRef, { onDelete: "cascade" }),
    ticketTypeId: uuid("ticket_type_id")
      .notNull()
      .references(() => ticketTypes.id, { onDelete: "restrict" }),
    quantity: integer("quantity").notNull(),
    pricePence: integer("price_pence").notNull(),
    seatsPerTicket: integer("seats_per_ticket").notNull(),
    refunded: integer("refunded").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.bookingRef, t.ticketTypeId] }),
    index("booking_items_type_idx").on(t.ticketTypeId),
    check("booking_items_quantity_positive", sql`${t.quantity} >= 1`),
    check("booking_items_price_not_negative", sql`${t.pricePence} >= 0`),
    check("booking_items_seats_positive", sql`${t.seatsPerTicket} >= 1`),
    check("booking_items_refunded_range", sql`${t.refunded} between 0 and ${t.quantity}`),
  ],
);

/**
 * A question an event asks its buyers (a meal choice, dietary needs): once per booking or of each
 * attendee. One that has answers is never deleted, only reworded or retired (`removed_at`).
 */
export const eventQuestions = pgTable(
  "event_questions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "restrict" }),
    question: text("question").notNull(),
    /** `text` (short text), `choice` (one of `choices`) or `yes-no`. */
    answerType: text("answer_type").$type<"text" | "choice" | "yes-no">().notNull(),
    choices: jsonb("choices").$type<string[]>().notNull().default([]),
    required: boolean("required").notNull().default(false),
    /** Asked of each attendee (every seat) rather than once per booking. */
    perAttendee: boolean("per_attendee").notNull().default(false),
    /** Shown to door staff at check-in. */
    shownAtDoor: boolean("shown_at_door").notNull().default(false),
    position: integer("position").notNull().default(0),
    removedAt: timestamp("removed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("event_questions_event_idx").on(t.eventId, t.position),
    check("event_questions_answer_type_known", sql`${t.answerType} in ('text', 'choice', 'yes-no')`),
  ],
);

/** A buyer's answer: `attendee` 0 for a question asked once per booking, else the attendee's number from 1. */
export const bookingAnswers = pgTable(
  "booking_answers",
  {
    bookingRef: uuid("booking_ref")
      .notNull()
      .references(() => bookings.bookingRef, { onDelete: "cascade" }),
    questionId: uuid("question_id")
      .notNull()
      .references(() => eventQuestions.id, { onDelete: "restrict" }),
    attendee: integer("attendee").notNull().default(0),
    answer: text("answer").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.bookingRef, t.questionId, t.attendee] }),
    index("booking_answers_question_idx").on(t.questionId),
    check("booking_answers_attendee_not_negative", sql`${t.attendee} >= 0`),
  ],
);

/** Every status a booking has passed through, with when and why: for staff and for audits. */
export const bookingHistory = pgTable(
  "booking_history",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    bookingRef: uuid("booking_ref")
      .notNull()
      .references(() => bookings.bookingRef, { onDelete: "cascade" }),
    status: text("status").notNull(),
    note: text("note").notNull().default(""),
    at: timestamp("at", { withTimezone: true }).notNull(),
  },
  (t) => [index("booking_history_ref_idx").on(t.bookingRef, t.at)],
);

/** Provider webhook events already handled, so a repeated delivery does nothing twice. */
export const processedWebhookEvents = pgTable("processed_webhook_events", {
  eventId: text("event_id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull(),
});

/**
 * E-mails waiting to go, written in the same transaction as what they report, and delivered by a
 * worker with retries. `dedupe_key` makes each e-mail (one receipt per booking) exist once.
 */
export const outbox = pgTable(
  "outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    dedupeKey: text("dedupe_key").notNull().unique(),
    recipient: text("recipient").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    /**
     * The words the payload marks `{{name}}`, sealed (app/infra/email/sealed-words.server.ts): a
     * staff invitation's token. Null once the e-mail is sent.
     */
    sealed: text("sealed"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull(),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /**
     * How it left: `smtp` (handed to the mail server) or `folder` (written to the outbox folder
     * because no mail server is set). Null for e-mails sent before this was recorded.
     */
    deliveredBy: text("delivered_by").$type<"smtp" | "folder">(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("outbox_due_idx").on(t.sentAt, t.nextAttemptAt), index("outbox_recipient_idx").on(t.recipient)],
);

/**
 * The offline test card provider's payments (the embedded default has no Stripe): kept in the
 * database so they survive a restart like Stripe's would.
 */
export const offlinePayments = pgTable("offline_payments", {
  id: text("id").primaryKey(),
  clientSecret: text("client_secret").notNull().unique(),
  amountPence: integer("amount_pence").notNull(),
  currency: text("currency").notNull(),
  description: text("description").notNull(),
  metadata: jsonb("metadata").$type<Record<string, string>>().notNull(),
  receiptEmail: text("receipt_email"),
  status: text("status").notNull(),
  lastError: text("last_error"),
  /** The test card that paid it (brand and last four digits, as Stripe reports them); never the whole number. */
  cardBrand: text("card_brand"),
  cardLast4: text("card_last4"),
  refundedAt: timestamp("refunded_at", { withTimezone: true }),
  /** When the card was confirmed (Stripe's charge `created`): settling judges the hold by it. */
  succeededAt: timestamp("succeeded_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  /** `card`, or `bacs_debit` for a Direct Debit payment from a mandate (decision 092). */
  paymentMethod: text("payment_method").notNull().default("card"),
  /** A Direct Debit payment's mandate (`offline_mandates`). */
  mandateId: text("mandate_id"),
  /** While a Direct Debit payment is `processing`: when the bank settles it (the minute job takes it then). */
  settlesAt: timestamp("settles_at", { withTimezone: true }),
});

/**
 * The offline test card provider's refunds, one per idempotency key (as Stripe keeps them), so a
 * refund asked for twice is made once.
 */
export const offlineRefunds = pgTable("offline_refunds", {
  id: text("id").primaryKey(),
  idempotencyKey: text("idempotency_key").notNull().unique(),
  paymentId: text("payment_id")
    .notNull()
    .references(() => offlinePayments.id, { onDelete: "cascade" }),
  amountPence: integer("amount_pence").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
});

/**
 * A card donation. It becomes `paid` only once the payment provider says the payment succeeded
 * (webhook or return page, whichever is first); the amount is the one the server validated.
 */
export const donations = pgTable(
  "donations",
  {
    id: uuid("id").primaryKey(),
    amountPence: integer("amount_pence").notNull(),
    donorName: text("donor_name").notNull(),
    email: text("email").notNull(),
    status: text("status").notNull(),
    provider: text("provider").notNull(),
    providerPaymentId: text("provider_payment_id").unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** The card it was paid with, where the provider says (for the receipt): brand and last four digits. */
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    /** The Gift Aid claim it was claimed in; null while not yet claimed. */
    giftAidClaimId: uuid("gift_aid_claim_id").references(() => giftAidClaims.id, { onDelete: "restrict" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
    /** A keyed hash of the donor's network address, as on bookings (decision 026); emptied on erasure. */
    clientKey: text("client_key"),
    /**
     * The booking it was added to at checkout (decision 085): paid by the booking's one payment,
     * for the tickets and the gift together; null for a donation made on its own.
     */
    bookingRef: uuid("booking_ref")
      .unique()
      .references(() => bookings.bookingRef, { onDelete: "restrict" }),
    /**
     * The regular gift it is one month's payment of (decision 089), and that month (London,
     * YYYY-MM); both null for a one-off donation. Unique together: a month is recorded once.
     */
    regularGiftId: uuid("regular_gift_id").references((): AnyPgColumn => regularGifts.id, { onDelete: "restrict" }),
    billingMonth: text("billing_month"),
    /**
     * The event whose thank-you the donor came from (decision 095): set only when the gift was
     * started within 30 days of the event's first thank-you being sent; null otherwise.
     */
    eventId: uuid("event_id").references((): AnyPgColumn => events.id, { onDelete: "restrict" }),
  },
  (t) => [
    index("donations_event_id_idx").on(t.eventId),
    uniqueIndex("donations_regular_gift_month_idx").on(t.regularGiftId, t.billingMonth),
    check("donations_gift_month_together", sql`(${t.regularGiftId} is null) = (${t.billingMonth} is null)`),
    index("donations_created_at_idx").on(t.createdAt),
    index("donations_email_idx").on(t.email),
    check("donations_amount_range", sql`${t.amountPence} between 100 and 1000000`),
    check(
      "donations_status_known",
      sql`${t.status} in ('pending', 'paid', 'cancelled', 'failed', 'refund_pending', 'refunded')`,
    ),
  ],
);

/**
 * A Gift Aid claim sent to HMRC: the donations in it point here, so none is claimed twice.
 * `claimed_on` is the date staff say the claim was made (a London date, YYYY-MM-DD).
 */
export const giftAidClaims = pgTable("gift_aid_claims", {
  id: uuid("id").primaryKey(),
  claimedOn: text("claimed_on").notNull(),
  donationCount: integer("donation_count").notNull(),
  totalPence: integer("total_pence").notNull(),
  staffUserId: uuid("staff_user_id").references(() => staffUsers.id, { onDelete: "set null" }),
  staffEmail: text("staff_email").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
});

/**
 * Money given back: part or all of a booking (staff, or an event cancelled), or a donation. The row
 * is written before the provider is asked, with `key` unique (the form's one-time token, or
 * `cancel:<booking ref>`), so a double click, two staff at once or a crash half way give one refund:
 * a `pending` refund is sent again with the same idempotency key (`refund-<id>`) until it succeeds.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: uuid("id").primaryKey(),
    key: text("key").notNull().unique(),
    bookingRef: uuid("booking_ref").references(() => bookings.bookingRef, { onDelete: "restrict" }),
    donationId: uuid("donation_id").references(() => donations.id, { onDelete: "restrict" }),
    /** Tickets given back, for a booking. */
    quantity: integer("quantity"),
    /**
     * The type of the tickets given back, when they are all of one type (decision 082); null for a
     * refund of tickets of several types (everything left, an event cancelled), or of a donation.
     */
    ticketTypeId: uuid("ticket_type_id").references(() => ticketTypes.id, { onDelete: "restrict" }),
    amountPence: integer("amount_pence").notNull(),
    reason: text("reason").notNull(),
    status: text("status").notNull(),
    providerRefundId: text("provider_refund_id"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    staffUserId: uuid("staff_user_id").references(() => staffUsers.id, { onDelete: "set null" }),
    staffEmail: text("staff_email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    index("refunds_booking_ref_idx").on(t.bookingRef),
    index("refunds_donation_id_idx").on(t.donationId),
    index("refunds_status_idx").on(t.status),
    check("refunds_one_subject", sql`(${t.bookingRef} is null) <> (${t.donationId} is null)`),
    check("refunds_amount_positive", sql`${t.amountPence} > 0`),
    check("refunds_status_known", sql`${t.status} in ('pending', 'succeeded', 'failed')`),
  ],
);

/**
 * A Gift Aid declaration made with a donation: what HMRC needs for a claim (name, house, postcode,
 * date) and the exact words the donor agreed to. `cancelled_at` is set when the donor cancels it.
 */
export const giftAidDeclarations = pgTable(
  "gift_aid_declarations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    donationId: uuid("donation_id")
      .notNull()
      .unique()
      .references(() => donations.id, { onDelete: "restrict" }),
    firstName: text("first_name").notNull(),
    surname: text("surname").notNull(),
    houseNameOrNumber: text("house_name_or_number").notNull(),
    postcode: text("postcode").notNull(),
    scope: text("scope").notNull(),
    wording: text("wording").notNull(),
    declaredAt: timestamp("declared_at", { withTimezone: true }).notNull(),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** Who recorded the donor's cancellation. */
    cancelledBy: text("cancelled_by"),
  },
  (t) => [
    check(
      "gift_aid_scope_known",
      sql`${t.scope} in ('this-donation', 'this-and-past-four-years', 'past-four-years-and-future', 'this-and-future')`,
    ),
  ],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/**
 * A picture staff uploaded (a poster, a gallery picture, a reviewer's photo). It is kept in the
 * database, with its renditions in `uploaded_image_files`, so every server process sharing the
 * database serves it and a redeploy keeps it (docs/decisions/012-uploaded-pictures.md). Pages name
 * it `uploads/<id>`.
 */
export const uploadedImages = pgTable("uploaded_images", {
  id: uuid("id").primaryKey(),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  originalName: text("original_name").notNull(),
  uploadedBy: uuid("uploaded_by").references(() => staffUsers.id, { onDelete: "set null" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
});

/** One rendition of an uploaded picture: a width and format the public pages ask for. */
export const uploadedImageFiles = pgTable(
  "uploaded_image_files",
  {
    imageId: uuid("image_id")
      .notNull()
      .references(() => uploadedImages.id, { onDelete: "cascade" }),
    width: integer("width").notNull(),
    format: text("format").notNull(),
    bytes: bytea("bytes").notNull(),
  },
  (t) => [primaryKey({ columns: [t.imageId, t.width, t.format] })],
);

/**
 * What staff did and when: refunds, edits, deletions, exports, check-ins, staff changes. `subject`
 * names what it was done to by id (`volunteer:<id>`, `event:<id>`), and `summary` says what was
 * done without a name or address, so the log is kept whole when a person's data is erased.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    staffUserId: uuid("staff_user_id").references(() => staffUsers.id, { onDelete: "set null" }),
    /** Kept when the account is removed, so "who" stays readable. */
    staffEmail: text("staff_email").notNull(),
    action: text("action").notNull(),
    subject: text("subject").notNull(),
    summary: text("summary").notNull(),
  },
  (t) => [index("audit_log_at_idx").on(t.at), index("audit_log_subject_idx").on(t.subject)],
);

/**
 * Settings staff change from the site (not the environment): `office-notifications` (where the
 * charity's office is told of bookings, donations and sign-ups, and whether each or once a day).
 */
export const siteSettings = pgTable("site_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").$type<unknown>().notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  updatedBy: text("updated_by").notNull(),
});

/**
 * One rate limit's count for one key (an address, an address and an account) in its current fixed
 * window (app/infra/rate-limit.server.ts): shared by every server process on the database. A key's
 * row starts again when its window has passed; rows past `resets_at` are deleted now and then.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    name: text("name").notNull(),
    key: text("key").notNull(),
    count: integer("count").notNull(),
    resetsAt: timestamp("resets_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.name, t.key] }), index("rate_limits_resets_at_idx").on(t.resetsAt)],
);

/**
 * Secrets the site makes for itself on first start when the environment gives none (the key that
 * signs known-device cookies, unless SESSION_SECRET is set), so every process and restart agrees.
 */
export const siteSecrets = pgTable("site_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
});

/**
 * Each card declined for a booking or a donation (decision 026): counted per attempt (a few and
 * the attempt is refused), per address (its keyed hash) and site-wide (a spike turns on the
 * proof-of-work challenge). `attempt` is the booking's reference or the donation's id.
 */
export const cardDeclines = pgTable(
  "card_declines",
  {
    id: uuid("id").primaryKey(),
    attempt: text("attempt").notNull(),
    clientKey: text("client_key"),
    at: timestamp("at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("card_declines_attempt_idx").on(t.attempt),
    index("card_declines_client_key_idx").on(t.clientKey, t.at),
    index("card_declines_at_idx").on(t.at),
  ],
);

/**
 * Each solved proof-of-work challenge once used for a payment start (decision 026): a challenge is
 * good for one start, in whichever of the site's processes it arrives (decision 047). Kept until the
 * challenge's own expiry, after which its signature refuses it anyway.
 */
export const spentChallenges = pgTable(
  "spent_challenges",
  {
    nonce: text("nonce").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("spent_challenges_expires_at_idx").on(t.expiresAt)],
);

/**
 * Every published version of each page's content (`site`, `home`, `about`, ...): the newest of a
 * name is what visitors see. Versions are never changed or deleted; a restore publishes a copy
 * (docs/decisions/031-content-in-the-database.md).
 */
export const contentVersions = pgTable(
  "content_versions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    /** 1 for a name's first version, then 2, 3, ... */
    number: integer("number").notNull(),
    content: jsonb("content").$type<unknown>().notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull(),
    publishedById: uuid("published_by_id").references(() => staffUsers.id, { onDelete: "set null" }),
    /** Kept when the account is removed; null for a version imported from the content files. */
    publishedByEmail: text("published_by_email"),
    /** "file", "editor" or "restore". */
    source: text("source").notNull(),
    /** The number of the version a restore copied. */
    restoredFrom: integer("restored_from"),
    /** For a version imported from content/<name>/content.json: a hash of the file, so a changed file is imported once. */
    fileHash: text("file_hash"),
  },
  (t) => [uniqueIndex("content_versions_name_number_idx").on(t.name, t.number)],
);

/** One draft per content name: what staff are editing, as they left it (it may not pass the schema yet). */
export const contentDrafts = pgTable("content_drafts", {
  name: text("name").primaryKey(),
  content: jsonb("content").$type<unknown>().notNull(),
  savedAt: timestamp("saved_at", { withTimezone: true }).notNull(),
  savedById: uuid("saved_by_id").references(() => staffUsers.id, { onDelete: "set null" }),
  savedByEmail: text("saved_by_email"),
  /** The number of the published version the draft started from. */
  basedOn: integer("based_on"),
});

/**
 * Unexpected errors (app/infra/log.server.ts logUnexpectedError), kept for /admin/system and the
 * alerts: when, the reference the visitor was shown, the request's id, where, and the message with
 * any e-mail address taken out. Kept 30 days.
 */
export const siteErrors = pgTable(
  "site_errors",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    ref: text("ref").notNull(),
    requestId: text("request_id"),
    where: text("where").notNull(),
    message: text("message").notNull(),
  },
  (t) => [index("site_errors_at_idx").on(t.at)],
);

/**
 * The alerts e-mailed to whoever looks after the site (app/infra/alerts.server.ts): one row per
 * kind, when it was last sent, and how many were held back since (at most one of a kind an hour).
 */
export const alertsSent = pgTable("alerts_sent", {
  kind: text("kind").primaryKey(),
  lastSentAt: timestamp("last_sent_at", { withTimezone: true }).notNull(),
  heldBack: integer("held_back").notNull().default(0),
});

/**
 * The backups the running site made (app/infra/backups/automatic.server.ts): each attempt, when it
 * began and ended, and its file and size or the error that stopped it. /admin/system, the staff
 * home's warnings, the alerts and /metrics read them, whichever process made them.
 */
export const backupRuns = pgTable(
  "backup_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** "daily", or "before-migration" (the embedded database's copy before it is upgraded). */
    kind: text("kind").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    ok: boolean("ok"),
    error: text("error"),
    /** The file's full path. */
    file: text("file"),
    bytes: bigint("bytes", { mode: "number" }),
  },
  (t) => [index("backup_runs_started_at_idx").on(t.startedAt)],
);

/**
 * Which London day's daily backup a process has claimed, and when: one row, taken by a conditional
 * UPDATE so that one process of several sharing the database makes it.
 */
export const backupSchedule = pgTable("backup_schedule", {
  name: text("name").primaryKey(),
  day: text("day").notNull(),
  claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull(),
});

/**
 * A person waiting for tickets of a sold-out event (docs/decisions/086-a-waiting-list.md): one entry
 * per address per event, its place kept by `joined_at` when it is updated. `ticket_type_id` null
 * means any type. State: waiting, offered (an offer is open), booked, passed (an offer was declined
 * or ran out: it never comes back to them), removed (by staff).
 */
export const waitingListEntries = pgTable(
  "waiting_list_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    ticketTypeId: uuid("ticket_type_id").references(() => ticketTypes.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    /** Lower case: the one address an entry is known by. */
    email: text("email").notNull(),
    tickets: integer("tickets").notNull(),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull(),
    state: text("state").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("waiting_list_entries_event_email_idx").on(t.eventId, t.email),
    index("waiting_list_entries_order_idx").on(t.eventId, t.state, t.joinedAt),
    check("waiting_list_entries_tickets_range", sql`${t.tickets} between 1 and 29`),
    check("waiting_list_entries_state_known", sql`${t.state} in ('waiting', 'offered', 'booked', 'passed', 'removed')`),
  ],
);

/**
 * Seats offered to a waiting-list entry: held by a booking (`booking_ref`, status held, its hold
 * ending at `expires_at`) so every count sees them taken, paid through the link whose token only
 * the e-mail has (its SHA-256 here). State: open, accepted, declined, expired, withdrawn.
 */
export const waitingListOffers = pgTable(
  "waiting_list_offers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    entryId: uuid("entry_id")
      .notNull()
      .references(() => waitingListEntries.id, { onDelete: "cascade" }),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    ticketTypeId: uuid("ticket_type_id")
      .notNull()
      .references(() => ticketTypes.id, { onDelete: "restrict" }),
    tickets: integer("tickets").notNull(),
    seats: integer("seats").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    bookingRef: uuid("booking_ref")
      .notNull()
      .references(() => bookings.bookingRef, { onDelete: "cascade" }),
    state: text("state").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (t) => [
    index("waiting_list_offers_event_state_idx").on(t.eventId, t.state),
    index("waiting_list_offers_entry_idx").on(t.entryId),
    check(
      "waiting_list_offers_state_known",
      sql`${t.state} in ('open', 'accepted', 'declined', 'expired', 'withdrawn')`,
    ),
  ],
);

/** A Gift Aid declaration made on a monthly gift's page, before the payment it is made with. */
export interface WaitingDeclaration {
  firstName: string;
  surname: string;
  houseNameOrNumber: string;
  postcode: string;
  wording: string;
  /** ISO 8601: when the donor made it. */
  declaredAt: string;
}

/**
 * A regular (monthly) gift by card (decision 089): the provider's subscription, and what the donor
 * chose. The provider is the truth for its state; `status` is our copy of what it last said:
 * `incomplete` until the first payment succeeds, then `active`, `failing` (a payment failed and the
 * provider is retrying), `paused` (by the donor, until `paused_until`) or `cancelled`. Each successful payment is a row of `donations`.
 */
export const regularGifts = pgTable(
  "regular_gifts",
  {
    id: uuid("id").primaryKey(),
    amountPence: integer("amount_pence").notNull(),
    /** The day of the month the payments are taken, 1 to 28 (every month has it). */
    dayOfMonth: integer("day_of_month").notNull(),
    donorName: text("donor_name").notNull(),
    email: text("email").notNull(),
    status: text("status").notNull(),
    provider: text("provider").notNull(),
    providerCustomerId: text("provider_customer_id"),
    providerSubscriptionId: text("provider_subscription_id").unique(),
    /** A keyed hash of the donor's network address, as on donations (decision 026); emptied on erasure. */
    clientKey: text("client_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /**
     * While `status` is `paused`: when the pause ends, the start of the London day of the first
     * payment after it (decision 090). No payment is taken before it.
     */
    pausedUntil: timestamp("paused_until", { withTimezone: true }),
    /**
     * A Gift Aid declaration the donor made on their gift's page, waiting for the next payment: it
     * becomes a row of `gift_aid_declarations` made with that payment's donation (decision 090).
     */
    declarationWaiting: jsonb("declaration_waiting").$type<WaitingDeclaration>(),
    /** How the gift is paid: `card`, or `bacs_debit` (Bacs Direct Debit, decision 092). */
    paymentMethod: text("payment_method").notNull().default("card"),
    /**
     * A Direct Debit gift's mandate, as the provider reports it and the Bacs notices need it: the
     * account holder's name, the sort code, the last four digits of the account (never the whole
     * number, anywhere), the mandate's reference and state (`pending`, `active`, `inactive`), and when
     * the details were collected (the first collection's date is reckoned from it).
     */
    providerMandateId: text("provider_mandate_id"),
    bankAccountName: text("bank_account_name"),
    bankSortCode: text("bank_sort_code"),
    bankLast4: text("bank_last4"),
    mandateReference: text("mandate_reference"),
    mandateStatus: text("mandate_status"),
    mandateAt: timestamp("mandate_at", { withTimezone: true }),
  },
  (t) => [
    index("regular_gifts_email_idx").on(t.email),
    index("regular_gifts_customer_idx").on(t.providerCustomerId),
    check("regular_gifts_payment_method_known", sql`${t.paymentMethod} in ('card', 'bacs_debit')`),
    check(
      "regular_gifts_mandate_status_known",
      sql`${t.mandateStatus} is null or ${t.mandateStatus} in ('pending', 'active', 'inactive')`,
    ),
    check("regular_gifts_bank_last4_only", sql`${t.bankLast4} is null or ${t.bankLast4} ~ '^[0-9]{4}$'`),
    check("regular_gifts_amount_range", sql`${t.amountPence} between 100 and 1000000`),
    check("regular_gifts_day_range", sql`${t.dayOfMonth} between 1 and 28`),
    check("regular_gifts_status_known", sql`${t.status} in ('incomplete', 'active', 'failing', 'paused', 'cancelled')`),
    check("regular_gifts_paused_until", sql`(${t.status} = 'paused') = (${t.pausedUntil} is not null)`),
  ],
);

/**
 * A donor's private link to their regular gift, `/giving/<token>`: only the token's SHA-256 is kept
 * (the e-mail carries the token sealed, decision 054). Every receipt brings a fresh one; each
 * works until `expires_at`.
 */
export const regularGiftLinks = pgTable(
  "regular_gift_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    regularGiftId: uuid("regular_gift_id")
      .notNull()
      .references(() => regularGifts.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("regular_gift_links_gift_idx").on(t.regularGiftId)],
);

/**
 * The offline test provider's subscriptions (the embedded default has no Stripe Billing): the card
 * the first payment was made with (brand and last four digits only) is charged again on
 * `next_charge_at`, each month's charge a row of `offline_payments`.
 */
export const offlineSubscriptions = pgTable("offline_subscriptions", {
  id: text("id").primaryKey(),
  customerId: text("customer_id").notNull(),
  email: text("email"),
  amountPence: integer("amount_pence").notNull(),
  dayOfMonth: integer("day_of_month").notNull(),
  /** Stripe's subscription statuses: incomplete, active, past_due, canceled. */
  status: text("status").notNull(),
  metadata: jsonb("metadata").$type<Record<string, string>>().notNull(),
  firstPaymentId: text("first_payment_id").notNull(),
  cardBrand: text("card_brand"),
  cardLast4: text("card_last4"),
  nextChargeAt: timestamp("next_charge_at", { withTimezone: true }).notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  canceledAt: timestamp("canceled_at", { withTimezone: true }),
  /** `card`, or `bacs_debit`: later months are collected from `mandate_id` (decision 092). */
  paymentMethod: text("payment_method").notNull().default("card"),
  mandateId: text("mandate_id"),
  /**
   * A change that waits for the next collection, already notified to the donor, to be taken first
   * (a Direct Debit change inside the advance notice period): then the amount, the day and the
   * next collection become these.
   */
  pendingChange: jsonb("pending_change").$type<{ amountPence?: number; dayOfMonth?: number; nextChargeAt?: string }>(),
});

/**
 * The offline test provider's Bacs Direct Debit mandates (decision 092): what Stripe would tell us of
 * one (the account holder, sort code and last four digits, a reference, a state) and the outcome
 * Stripe's test account number stands for. The whole account number is never kept.
 */
export const offlineMandates = pgTable("offline_mandates", {
  id: text("id").primaryKey(),
  customerId: text("customer_id").notNull(),
  reference: text("reference").notNull().unique(),
  accountName: text("account_name").notNull(),
  sortCode: text("sort_code").notNull(),
  last4: text("last4").notNull(),
  /** Stripe's mandate states: pending, active, inactive. */
  status: text("status").notNull(),
  /** What Stripe's test account stands for: payments succeed, payments fail, or the bank refuses the mandate. */
  outcome: text("outcome").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
});

/**
 * A message staff wrote to an event's people (decision 095): the subject and text, to whom
 * (`audience`: all, type (with `ticket_type_id`), checked-in, not-checked-in, waiting-list), and how
 * many bookings or waiting-list entries it was addressed to. The id is chosen by the compose form,
 * so a double click or a retried post records it once. Its e-mails are the outbox rows keyed
 * `event-message:<id>:<booking ref or entry id>` (or `event-thank-you:...`): they are its record of
 * recipients, and a person's erasure empties theirs.
 */
export const eventMessages = pgTable(
  "event_messages",
  {
    id: uuid("id").primaryKey(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "restrict" }),
    audience: text("audience").notNull(),
    ticketTypeId: uuid("ticket_type_id").references(() => ticketTypes.id, { onDelete: "restrict" }),
    /** `message`, or `thank-you` (to those who came, with a link to give). */
    kind: text("kind").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    staffUserId: uuid("staff_user_id").references(() => staffUsers.id, { onDelete: "set null" }),
    /** Kept when the account is removed, as the audit log keeps it. */
    staffEmail: text("staff_email").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull(),
    /** How many bookings (or waiting-list entries) it was addressed to when sent. */
    addressed: integer("addressed").notNull(),
  },
  (t) => [
    index("event_messages_event_sent_idx").on(t.eventId, t.sentAt),
    check(
      "event_messages_audience_known",
      sql`${t.audience} in ('all', 'type', 'checked-in', 'not-checked-in', 'waiting-list')`,
    ),
    check("event_messages_type_with_audience", sql`(${t.audience} = 'type') = (${t.ticketTypeId} is not null)`),
    check("event_messages_kind_known", sql`${t.kind} in ('message', 'thank-you')`),
    check("event_messages_subject_length", sql`char_length(${t.subject}) between 1 and 150`),
    check("event_messages_body_length", sql`char_length(${t.body}) between 1 and 5000`),
    check("event_messages_addressed_positive", sql`${t.addressed} >= 1`),
  ],
);
