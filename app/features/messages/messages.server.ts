import { and, asc, desc, eq, gt, inArray, sql, type SQL } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import type { Database, Queryable } from "~/infra/db/database.server";
import { composeLetter, paragraphs, type Block } from "~/infra/email/letter.server";
import { mailKey, type MailKind } from "~/infra/email/mail-kinds";
import type { MailMessage } from "~/infra/email/mailer.server";
import { queueMails, type OutboxWorker } from "~/infra/email/outbox.server";
import type { Charity } from "~/infra/payments/provider.server";
import type { Clock } from "~/lib/clock";
import { AppError } from "~/lib/errors";
import { validate } from "~/lib/forms";
import { isUuid } from "~/lib/ids";
import { londonDayWords, londonTime } from "~/lib/london-time";
import { plural } from "~/lib/plural";
import {
  bookingItems,
  bookings,
  donations,
  eventMessages,
  events,
  outbox,
  tickets,
  ticketTypes,
  waitingListEntries,
} from "~db/schema";
import {
  audienceWords,
  giveAfterEventPath,
  messageFormSchema,
  messageWords,
  type Audience,
  type AudienceKind,
  type GiftsAfterThankYou,
  type MessageCounts,
  type MessageSummary,
  type MessageField,
  type MessageForm,
  type MessageKind,
} from "./schema";

// Messages staff write to an event's people, and the thank-you to those who came
// (docs/decisions/095-messages-to-attendees.md). One e-mail per booking (not per ticket), or per
// waiting-list entry, queued in the outbox in the transaction that records the message: the
// outbox rows are the message's list of recipients and how each e-mail stands.

export interface MessageDeps {
  db: Database;
  clock: Clock;
  charity: Charity;
  outbox?: Pick<OutboxWorker, "deliverDue">;
}

/** Who sends it: the member of staff signed in. */
interface Sender {
  id: string;
  email: string;
}

interface Recipient {
  /** The booking reference, or the waiting-list entry's id: the outbox key's last part. */
  about: string;
  name: string;
  email: string;
  bookingRef: string | null;
}

const mailKindOf = (kind: MessageKind): MailKind => (kind === "thank-you" ? "event-thank-you" : "event-message");
const keyPrefix = (kind: MessageKind, messageId: string) => `${mailKey(mailKindOf(kind), messageId)}:`;

/** Bookings paid for with a valid ticket, of this event, as the audience narrows them. */
function bookingsWhere(eventId: string, audience: Audience): SQL {
  const conditions: SQL[] = [
    eq(bookings.eventId, eventId),
    eq(bookings.status, "paid"),
    eq(tickets.isValid, true),
    // A person whose data was erased is not written to again (their address is no longer theirs).
    sql`${tickets.email} not like '%@erased.invalid'`,
  ];
  if (audience.kind === "checked-in") conditions.push(gt(tickets.checkedInCount, 0));
  if (audience.kind === "not-checked-in") conditions.push(eq(tickets.checkedInCount, 0));
  if (audience.kind === "type") {
    conditions.push(
      sql`exists (select 1 from ${bookingItems} where ${bookingItems.bookingRef} = ${bookings.bookingRef} and ${bookingItems.ticketTypeId} = ${audience.ticketTypeId} and ${bookingItems.quantity} > ${bookingItems.refunded})`,
    );
  }
  return and(...conditions)!;
}

const waitingWhere = (eventId: string) =>
  and(eq(waitingListEntries.eventId, eventId), inArray(waitingListEntries.state, ["waiting", "offered"]))!;

/** Everyone the audience reaches now, one per booking (or waiting-list entry), oldest first. */
async function recipientsOf(db: Queryable, eventId: string, audience: Audience): Promise<Recipient[]> {
  if (audience.kind === "waiting-list") {
    const rows = await db
      .select({ id: waitingListEntries.id, name: waitingListEntries.name, email: waitingListEntries.email })
      .from(waitingListEntries)
      .where(waitingWhere(eventId))
      .orderBy(asc(waitingListEntries.joinedAt), asc(waitingListEntries.id));
    return rows.map((row) => ({ about: row.id, name: row.name, email: row.email, bookingRef: null }));
  }
  const rows = await db
    .select({ ref: bookings.bookingRef, name: tickets.ticketHolderName, email: tickets.email })
    .from(bookings)
    .innerJoin(tickets, eq(tickets.bookingRef, bookings.bookingRef))
    .where(bookingsWhere(eventId, audience))
    .orderBy(asc(bookings.paidAt), asc(bookings.bookingRef));
  return rows.map((row) => ({ about: row.ref, name: row.name, email: row.email, bookingRef: row.ref }));
}

async function countOf(db: Queryable, eventId: string, audience: Audience): Promise<number> {
  if (audience.kind === "waiting-list") {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(waitingListEntries)
      .where(waitingWhere(eventId));
    return Number(row?.n ?? 0);
  }
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(bookings)
    .innerJoin(tickets, eq(tickets.bookingRef, bookings.bookingRef))
    .where(bookingsWhere(eventId, audience));
  return Number(row?.n ?? 0);
}

export interface AudienceChoice {
  value: string;
  label: string;
  count: number;
}

/** What the compose page offers: each audience with how many bookings it reaches now. */
export async function audiencesOf(deps: { db: Queryable; clock: Clock }, eventId: string) {
  const [event] = isUuid(eventId) ? await deps.db.select().from(events).where(eq(events.id, eventId)) : [];
  if (!event) throw new AppError("not-found", "There is no such event.");
  const types = await deps.db
    .select({ id: ticketTypes.id, name: ticketTypes.name })
    .from(ticketTypes)
    .where(eq(ticketTypes.eventId, eventId))
    .orderBy(asc(ticketTypes.position));
  const byDoor = { kind: "checked-in", ticketTypeId: null } as const;
  const choices: AudienceChoice[] = [];
  const add = async (audience: Audience, label: string) =>
    choices.push({
      value: audience.kind === "type" ? `type:${audience.ticketTypeId}` : audience.kind,
      label,
      count: await countOf(deps.db, eventId, audience),
    });
  await add({ kind: "all", ticketTypeId: null }, audienceWords("all"));
  // One type's buyers only where the event has more than one type to tell apart.
  if (types.length > 1) {
    for (const type of types) await add({ kind: "type", ticketTypeId: type.id }, audienceWords("type", type.name));
  }
  await add(byDoor, audienceWords("checked-in"));
  await add({ kind: "not-checked-in", ticketTypeId: null }, audienceWords("not-checked-in"));
  const waiting = await countOf(deps.db, eventId, { kind: "waiting-list", ticketTypeId: null });
  const [listed] = await deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(waitingListEntries)
    .where(eq(waitingListEntries.eventId, eventId));
  if (Number(listed?.n ?? 0) > 0)
    choices.push({ value: "waiting-list", label: audienceWords("waiting-list"), count: waiting });
  const came = choices.find((choice) => choice.value === "checked-in")?.count ?? 0;
  return {
    event: { id: event.id, name: event.name, eventDate: event.eventDate.toISOString(), cancelled: !!event.cancelledAt },
    choices,
    /** A thank-you is offered once the event has begun and someone was let in. */
    thankYouOpen: event.eventDate <= deps.clock.now() && came > 0,
  };
}

function readForm(input: unknown): MessageForm {
  const validation = validate<typeof messageFormSchema, MessageField>(messageFormSchema, input);
  if (!validation.ok) throw new AppError("invalid", messageWords.summary, { fields: validation.errors });
  const form = validation.data;
  if (form.kind === "thank-you" && form.audience.kind !== "checked-in") {
    throw new AppError("invalid", messageWords.noThankYou, { fields: { audience: messageWords.noThankYou } });
  }
  return form;
}

interface LetterEvent {
  id: string;
  name: string;
  eventDate: Date;
}

/** The e-mail one recipient gets: the staff's words as paragraphs in the charity's letter, the event, and for a thank-you the link to give. */
function letterFor(
  charity: Charity,
  event: LetterEvent,
  message: { kind: MessageKind; subject: string; body: string },
  to: Pick<Recipient, "name" | "email" | "bookingRef">,
): Promise<MailMessage> {
  const blocks: Block[] = [
    ...paragraphs(message.body),
    ...(message.kind === "thank-you"
      ? [
          {
            paragraph: [
              {
                link: `Give to ${charity.name}`,
                href: new URL(giveAfterEventPath(event.id), charity.website).toString(),
              },
            ],
          },
        ]
      : []),
    {
      rows: [
        ["Event", event.name],
        ["Date", `${londonDayWords(event.eventDate)} at ${londonTime(event.eventDate)}`],
        ...(to.bookingRef ? ([["Booking reference", to.bookingRef]] as [string, string][]) : []),
      ],
    },
  ];
  return composeLetter({
    to: { name: to.name, address: to.email },
    subject: message.subject,
    title: event.name,
    greeting: `Dear ${to.name},`,
    charity,
    blocks,
  });
}

async function eventOf(db: Queryable, eventId: string): Promise<LetterEvent> {
  const [event] = isUuid(eventId)
    ? await db
        .select({ id: events.id, name: events.name, eventDate: events.eventDate })
        .from(events)
        .where(eq(events.id, eventId))
    : [];
  if (!event) throw new AppError("not-found", "There is no such event.");
  return event;
}

/**
 * The e-mail as the audience's first recipient would get it, and how many it would go to; nothing
 * is stored. Refuses what sending would refuse (each field's message; an empty audience).
 */
export async function previewMessage(deps: MessageDeps, eventId: string, input: unknown) {
  const event = await eventOf(deps.db, eventId);
  const form = readForm(input);
  const recipients = await recipientsOf(deps.db, event.id, form.audience);
  const first = recipients[0];
  if (!first) throw new AppError("invalid", messageWords.nobody, { fields: { audience: messageWords.nobody } });
  const mail = await letterFor(deps.charity, event, form, first);
  return { count: recipients.length, to: first.name, subject: mail.subject, text: mail.text, html: mail.html };
}

/**
 * Sends a message: records it and queues one e-mail per recipient in one transaction, audited. The
 * id is the compose form's: sent again (a double click, a retried post), it finds the message
 * already recorded and queues nothing more. An empty audience records nothing.
 */
export async function sendEventMessage(
  deps: MessageDeps,
  staff: Sender,
  eventId: string,
  input: unknown,
): Promise<{ id: string; addressed: number; again: boolean }> {
  const event = await eventOf(deps.db, eventId);
  const form = readForm(input);
  const now = deps.clock.now();
  const done = await deps.db.transaction(async (tx) => {
    const [already] = await tx.select().from(eventMessages).where(eq(eventMessages.id, form.messageId));
    if (already) return sentBefore(already, event.id);
    const recipients = await recipientsOf(tx, event.id, form.audience);
    if (recipients.length === 0) {
      throw new AppError("invalid", messageWords.nobody, { fields: { audience: messageWords.nobody } });
    }
    const [recorded] = await tx
      .insert(eventMessages)
      .values({
        id: form.messageId,
        eventId: event.id,
        audience: form.audience.kind,
        ticketTypeId: form.audience.ticketTypeId,
        kind: form.kind,
        subject: form.subject,
        body: form.body,
        staffUserId: staff.id,
        staffEmail: staff.email,
        sentAt: now,
        addressed: recipients.length,
      })
      .onConflictDoNothing({ target: eventMessages.id })
      .returning();
    // Another request with the same id got there first, and has queued its e-mails.
    if (!recorded) {
      const [other] = await tx.select().from(eventMessages).where(eq(eventMessages.id, form.messageId));
      return sentBefore(other, event.id);
    }
    const kind = mailKindOf(form.kind);
    const queued = await Promise.all(
      recipients.map(async (to) => ({
        kind,
        about: `${form.messageId}:${to.about}`,
        message: await letterFor(deps.charity, event, form, to),
        now,
      })),
    );
    // A few statements for a large audience, not one per booking.
    await queueMails(tx, queued);
    await recordAudit(tx, {
      staff,
      action: form.kind === "thank-you" ? "event.thank-you-sent" : "event.message-sent",
      subject: `event:${event.id}`,
      // The count and the audience, never a person: "Wrote to 300 bookings (everyone with a ticket): message <id>".
      summary: `${form.kind === "thank-you" ? "Thanked" : "Wrote to"} ${reach(form.audience, recipients.length)} (${audienceWords(form.audience.kind).toLowerCase()}): message ${form.messageId}`,
      at: now,
    });
    return { id: recorded.id, addressed: recorded.addressed, again: false };
  });
  if (!done.again) void deps.outbox?.deliverDue();
  return done;
}

/** "300 bookings", or "2 waiting-list entries". */
function reach(audience: Audience, count: number) {
  return audience.kind === "waiting-list"
    ? plural(count, "waiting-list entry", "waiting-list entries")
    : plural(count, "booking");
}

function sentBefore(message: typeof eventMessages.$inferSelect | undefined, eventId: string) {
  if (!message || message.eventId !== eventId)
    throw new AppError("conflict", "This form was used for another message: open it again.");
  return { id: message.id, addressed: message.addressed, again: true };
}

/** How each of these messages' e-mails stand, from their outbox rows. */
async function countsOf(db: Queryable, messages: { id: string; kind: string }[]): Promise<Map<string, MessageCounts>> {
  const counts = new Map<string, MessageCounts>();
  if (messages.length === 0) return counts;
  const failed = sql`${outbox.sentAt} is null and ${outbox.attempts} > 0 and ${outbox.lastError} is not null`;
  const rows = await db
    .select({
      id: sql<string>`split_part(${outbox.dedupeKey}, ':', 2)`,
      sent: sql<number>`count(*) filter (where ${outbox.sentAt} is not null)::int`,
      failed: sql<number>`count(*) filter (where ${failed})::int`,
      waiting: sql<number>`count(*) filter (where ${outbox.sentAt} is null and not (${failed}))::int`,
    })
    .from(outbox)
    .where(
      and(
        inArray(outbox.kind, ["event-message", "event-thank-you"]),
        inArray(
          sql`split_part(${outbox.dedupeKey}, ':', 2)`,
          messages.map((message) => message.id),
        ),
      ),
    )
    .groupBy(sql`split_part(${outbox.dedupeKey}, ':', 2)`);
  for (const row of rows) {
    counts.set(row.id, { sent: Number(row.sent), failed: Number(row.failed), waiting: Number(row.waiting) });
  }
  return counts;
}

function summaryOf(
  row: typeof eventMessages.$inferSelect,
  typeName: string | null,
  counts: MessageCounts | undefined,
): MessageSummary {
  return {
    id: row.id,
    kind: row.kind as MessageKind,
    subject: row.subject,
    audience: audienceWords(row.audience as AudienceKind, typeName),
    sentAt: row.sentAt.toISOString(),
    by: row.staffEmail,
    addressed: row.addressed,
    ...(counts ?? { sent: 0, failed: 0, waiting: 0 }),
  };
}

/**
 * The event's messages, newest first, each with its counts; and the gifts made after its thank-you,
 * each one listed for staff who may see donations (`giftList`).
 */
export async function messagesOfEvent(
  deps: { db: Queryable; clock: Clock },
  eventId: string,
  { giftList = false }: { giftList?: boolean } = {},
) {
  const rows = await deps.db
    .select({ message: eventMessages, typeName: ticketTypes.name })
    .from(eventMessages)
    .leftJoin(ticketTypes, eq(ticketTypes.id, eventMessages.ticketTypeId))
    .where(eq(eventMessages.eventId, eventId))
    .orderBy(desc(eventMessages.sentAt));
  const counts = await countsOf(
    deps.db,
    rows.map((row) => row.message),
  );
  const [event] = await deps.db.select({ eventDate: events.eventDate }).from(events).where(eq(events.id, eventId));
  const [came] = await deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(tickets)
    .where(and(eq(tickets.eventId, eventId), eq(tickets.isValid, true), gt(tickets.checkedInCount, 0)));
  return {
    messages: rows.map((row) => summaryOf(row.message, row.typeName, counts.get(row.message.id))),
    thankYouOpen: !!event && event.eventDate <= deps.clock.now() && Number(came?.n ?? 0) > 0,
    thankYouSent: rows.some((row) => row.message.kind === "thank-you"),
    gifts: await giftsAfterThankYou(deps.db, eventId, giftList),
  };
}

/** One-off gifts counted for the event (made through its thank-you): paid and not refunded. */
export async function giftsAfterThankYou(db: Queryable, eventId: string, listed = false): Promise<GiftsAfterThankYou> {
  const counted = and(eq(donations.eventId, eventId), eq(donations.status, "paid"));
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, pence: sql<number>`coalesce(sum(${donations.amountPence}), 0)::int` })
    .from(donations)
    .where(counted);
  const list = listed
    ? (
        await db
          .select({
            id: donations.id,
            donorName: donations.donorName,
            amountPence: donations.amountPence,
            paidAt: donations.paidAt,
          })
          .from(donations)
          .where(counted)
          .orderBy(desc(donations.paidAt))
          .limit(100)
      ).map((gift) => ({ ...gift, paidAt: gift.paidAt?.toISOString() ?? null }))
    : null;
  return { count: Number(row?.count ?? 0), pence: Number(row?.pence ?? 0), list };
}

export type RecipientStatus = "sent" | "failed" | "waiting";

/**
 * One message, with how its e-mails stand and, for staff who may see buyers, to whom each went:
 * the outbox rows (an erased person's row says so and names no one).
 */
export async function eventMessage(db: Queryable, eventId: string, messageId: string, withRecipients: boolean) {
  if (!isUuid(eventId) || !isUuid(messageId)) throw new AppError("not-found", "There is no such message.");
  const [row] = await db
    .select({ message: eventMessages, typeName: ticketTypes.name, eventName: events.name })
    .from(eventMessages)
    .innerJoin(events, eq(events.id, eventMessages.eventId))
    .leftJoin(ticketTypes, eq(ticketTypes.id, eventMessages.ticketTypeId))
    .where(and(eq(eventMessages.id, messageId), eq(eventMessages.eventId, eventId)));
  if (!row) throw new AppError("not-found", "There is no such message.");
  const counts = await countsOf(db, [row.message]);
  const recipients = withRecipients
    ? (
        await db
          .select({
            id: outbox.id,
            recipient: outbox.recipient,
            payload: outbox.payload,
            sentAt: outbox.sentAt,
            attempts: outbox.attempts,
            lastError: outbox.lastError,
          })
          .from(outbox)
          .where(
            and(
              eq(outbox.kind, mailKindOf(row.message.kind as MessageKind)),
              sql`starts_with(${outbox.dedupeKey}, ${keyPrefix(row.message.kind as MessageKind, messageId)})`,
            ),
          )
          .orderBy(asc(outbox.recipient))
      ).map((mail) => {
        const erased = (mail.payload as { erased?: boolean }).erased === true;
        const status: RecipientStatus = mail.sentAt
          ? "sent"
          : mail.attempts > 0 && mail.lastError
            ? "failed"
            : "waiting";
        return { id: mail.id, to: erased ? null : mail.recipient, status };
      })
    : null;
  return {
    ...summaryOf(row.message, row.typeName, counts.get(messageId)),
    eventName: row.eventName,
    body: row.message.body,
    recipients,
  };
}
