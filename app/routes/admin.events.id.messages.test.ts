import { and, eq, like } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Services } from "../../server/services";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { erasePersonData } from "~/features/people/people.server";
import { auditLog, bookings, donations, eventMessages, events, outbox, tickets, waitingListEntries } from "~db/schema";
import { testClock, type TestClock } from "../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../tests/support/databases";
import { TestSmtpServer } from "../../tests/support/smtp";
import { callRoute, signedInStaff, testServices, type TestServices } from "../../tests/support/services";
import { buyTypes, giveTypes } from "../../tests/support/ticket-types";
import { action as compose, loader as composePage } from "./admin.events.id.messages.new";
import { loader as messagePage } from "./admin.events.id.messages.id";
import { loader as donationPage } from "./admin.donations.id";
import { loader as eventPage } from "./admin.events.id";
import { action as donationsApi } from "./api.donations";
import { loader as paymentPage } from "./payment";

// Messages to an event's people and the thank-you (docs/decisions/095-messages-to-attendees.md),
// through the staff pages' own handlers: who each audience reaches (one e-mail per booking), a
// message sent once however often it is posted, each field's message, a person's erasure, the
// counts from the outbox with a real SMTP server on loopback, and the gifts after a thank-you.

const day = 86_400_000;

describe.each(engines)("messages to an event's people on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let smtp: TestSmtpServer;
  let services: TestServices;
  let site: Services;
  let cookie: string;
  let staff: { id: string; email: string };
  let eventId: string;
  let types: Record<string, string>;
  const refs: Record<string, string> = {};

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-27T10:00:00Z");
    smtp = await new TestSmtpServer().start();
    services = await testServices(database, clock, { SMTP_URL: smtp.url });
    site = await services.request();
    ({ cookie, staff } = await signedInStaff(database.db, clock.now()));
    eventId = await insertEvent(database.db, { name: "Harvest Supper", totalAvailableTickets: 60 }, clock.now());
    types = await giveTypes(
      database.db,
      eventId,
      [
        { name: "Adult", pricePence: 1250 },
        { name: "Child", pricePence: 500 },
      ],
      clock.now(),
    );
    // Four Adult tickets in one booking (checked in), a Child's, and a refunded booking.
    refs.amina = await buyTypes(
      site,
      eventId,
      { [types.Adult!]: 4 },
      { name: "Amina Mushi", email: "amina@example.org" },
    );
    refs.baraka = await buyTypes(
      site,
      eventId,
      { [types.Child!]: 1 },
      { name: "Baraka Ole", email: "baraka@example.org" },
    );
    refs.chege = await buyTypes(
      site,
      eventId,
      { [types.Adult!]: 2 },
      { name: "Chege Kamau", email: "chege@example.org" },
    );
    await database.db
      .update(tickets)
      .set({ checkedInCount: 2, checkedInAt: clock.now() })
      .where(eq(tickets.bookingRef, refs.amina));
    await database.db.update(bookings).set({ status: "refunded" }).where(eq(bookings.bookingRef, refs.chege));
    await database.db.update(tickets).set({ isValid: false }).where(eq(tickets.bookingRef, refs.chege));
    await database.db.insert(waitingListEntries).values([
      {
        eventId,
        name: "Dalila Nyambura",
        email: "dalila@example.org",
        tickets: 2,
        joinedAt: clock.now(),
        state: "waiting",
        updatedAt: clock.now(),
      },
      {
        eventId,
        name: "Esi Owino",
        email: "esi@example.org",
        tickets: 1,
        joinedAt: clock.now(),
        state: "passed",
        updatedAt: clock.now(),
      },
    ]);
    // The receipts of the bookings are not what these tests count.
    await site.outbox.deliverDue();
    smtp.received.length = 0;
  });
  afterEach(async () => {
    await services.close();
    await smtp.stop();
  });

  const path = () => `http://localhost/admin/events/${eventId}/messages/new`;
  async function post(fields: Record<string, string>) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const request = new Request(path(), { method: "POST", body: form, headers: { cookie } });
    const answer = (await callRoute(compose, request, await services.request(), {
      params: { id: eventId },
    })) as unknown;
    if (answer instanceof Response) return { location: answer.headers.get("location") };
    return (typeof answer === "object" && answer !== null && "data" in answer ? answer.data : answer) as {
      ok: boolean;
      message: string;
      fields?: Record<string, string>;
      values?: { preview?: { count: number; to: string; subject: string; text: string } };
    };
  }
  const message = (audience: string, extra: Record<string, string> = {}) => ({
    intent: "send",
    messageId: crypto.randomUUID(),
    audience,
    kind: "message",
    subject: "Parking on the night",
    body: "Please park behind the hall.\n\nThe front gate is closed after six.",
    ...extra,
  });
  const queuedFor = async (messageId: string) =>
    (
      await database.db
        .select()
        .from(outbox)
        .where(like(outbox.dedupeKey, `event-%:${messageId}:%`))
    )
      .map((row) => row.recipient)
      .sort();
  const page = async (messageId: string) =>
    (
      await callRoute(
        messagePage,
        new Request(`http://localhost/admin/events/${eventId}/messages/${messageId}`, { headers: { cookie } }),
        await services.request(),
        { params: { id: eventId, messageId } },
      )
    ).message;

  it("offers each audience with how many bookings it reaches, and writes once to each booking it names", async () => {
    const offered = await callRoute(composePage, new Request(path(), { headers: { cookie } }), site, {
      params: { id: eventId },
    });
    expect(offered.choices.map((choice) => [choice.value, choice.count])).toEqual([
      ["all", 2],
      [`type:${types.Adult}`, 1],
      [`type:${types.Child}`, 1],
      ["checked-in", 1],
      ["not-checked-in", 1],
      ["waiting-list", 1],
    ]);
    const amina = "Amina Mushi <amina@example.org>";
    const baraka = "Baraka Ole <baraka@example.org>";
    const cases: [string, string[]][] = [
      ["all", [amina, baraka]],
      [`type:${types.Adult}`, [amina]],
      [`type:${types.Child}`, [baraka]],
      ["checked-in", [amina]],
      ["not-checked-in", [baraka]],
      ["waiting-list", ["Dalila Nyambura <dalila@example.org>"]],
    ];
    for (const [audience, expected] of cases) {
      const fields = message(audience);
      expect(await post(fields)).toEqual({
        location: `/admin/events/${eventId}/messages/${fields.messageId}?sent=now`,
      });
      expect(await queuedFor(fields.messageId)).toEqual(expected);
    }
    // One per booking: Amina's four tickets are one e-mail.
    await site.outbox.deliverDue();
    // Everyone, Adult and checked in: three messages, one e-mail each.
    expect(smtp.sentTo("amina@example.org")).toHaveLength(3);
    const letter = smtp.sentTo("baraka@example.org")[0]!;
    expect(letter.subject).toBe("Parking on the night");
    expect(letter.text).toContain("Dear Baraka Ole,");
    expect(letter.text).toContain("Please park behind the hall.");
    expect(letter.text).toContain("Harvest Supper");
    expect(letter.replyTo?.text).toBeTruthy();
    const audits = await database.db.select().from(auditLog).where(eq(auditLog.action, "event.message-sent"));
    expect(audits).toHaveLength(6);
    expect(audits.map((entry) => entry.summary).join(" ")).not.toMatch(/Amina|amina@|Baraka/);
    expect(audits.every((entry) => entry.subject === `event:${eventId}`)).toBe(true);
  });

  it("previews the e-mail as the first recipient gets it, storing nothing", async () => {
    const fields = message("all", { intent: "preview", body: "Bring a torch <b>please</b>." });
    const answer = await post(fields);
    expect(answer).toMatchObject({ ok: true, values: { preview: { count: 2 } } });
    const preview = "values" in answer ? answer.values!.preview! : undefined;
    // The first of the audience (both booked at the same moment here).
    expect(["Amina Mushi", "Baraka Ole"]).toContain(preview!.to);
    expect(preview!.text).toContain(`Dear ${preview!.to},`);
    expect(preview!.text).toContain("Bring a torch <b>please</b>.");
    expect(await database.db.select().from(eventMessages)).toHaveLength(0);
    expect(await queuedFor(fields.messageId)).toEqual([]);
  });

  it("records and queues a message once, whether it is posted twice in turn or at the same moment", async () => {
    const fields = message("all");
    const first = await post(fields);
    const again = await post(fields);
    expect(first).toEqual({ location: `/admin/events/${eventId}/messages/${fields.messageId}?sent=now` });
    expect(again).toEqual({ location: `/admin/events/${eventId}/messages/${fields.messageId}?sent=again` });
    const together = message("checked-in");
    await Promise.all([post(together), post(together), post(together)]);
    expect(await database.db.select().from(eventMessages)).toHaveLength(2);
    expect(await queuedFor(fields.messageId)).toHaveLength(2);
    expect(await queuedFor(together.messageId)).toHaveLength(1);
    await site.outbox.deliverDue();
    expect(smtp.sentTo("amina@example.org")).toHaveLength(2);
  });

  it("refuses bad input field by field, and an empty audience, recording nothing", async () => {
    expect(await post(message("all", { subject: " ", body: "" }))).toMatchObject({
      ok: false,
      fields: {
        subject: "Enter a subject of at most 150 characters.",
        body: "Write the message, in at most 5000 characters.",
      },
    });
    expect(await post(message("all", { subject: "x".repeat(151) }))).toMatchObject({
      ok: false,
      fields: { subject: "Enter a subject of at most 150 characters." },
    });
    expect(await post(message("everyone-ever"))).toMatchObject({
      ok: false,
      fields: { audience: "Choose who it goes to." },
    });
    expect(await post(message("all", { kind: "thank-you" }))).toMatchObject({ ok: false });
    await database.db.update(waitingListEntries).set({ state: "booked" });
    expect(await post(message("waiting-list"))).toMatchObject({
      ok: false,
      message: "Nobody is in this audience, so nothing was sent. Choose another.",
    });
    expect(await database.db.select().from(eventMessages)).toHaveLength(0);
    expect(await database.db.select().from(auditLog).where(eq(auditLog.action, "event.message-sent"))).toHaveLength(0);
  });

  it("counts sent, failed and waiting from the outbox, through a real SMTP server that is down, then up", async () => {
    const port = smtp.port;
    await smtp.stop();
    const fields = message("all");
    await post(fields);
    // The post asks the outbox to deliver at once; with the server down each e-mail fails.
    expect(await page(fields.messageId)).toMatchObject({ addressed: 2 });
    await site.outbox.deliverDue();
    expect(await page(fields.messageId)).toMatchObject({ sent: 0, failed: 2, waiting: 0 });
    await smtp.start(port);
    clock.advance(30_000);
    await site.outbox.deliverDue();
    const after = await page(fields.messageId);
    expect(after).toMatchObject({ sent: 2, failed: 0, waiting: 0 });
    expect(after.recipients!.map((row) => [row.to, row.status])).toEqual([
      ["Amina Mushi <amina@example.org>", "sent"],
      ["Baraka Ole <baraka@example.org>", "sent"],
    ]);
    expect(smtp.received).toHaveLength(2);
  });

  it("a person's erasure takes them out of the message's record, and out of the next message", async () => {
    const fields = message("all");
    await post(fields);
    await site.outbox.deliverDue();
    const waiting = message("waiting-list");
    await smtp.stop(); // Dalila's e-mail is still to send when she is erased
    await post(waiting);
    await erasePersonData(site, staff, "amina@example.org", clock.now());
    await erasePersonData(site, staff, "dalila@example.org", clock.now());
    const sent = await page(fields.messageId);
    // Her sent e-mail is still counted (it went), but names no one.
    expect(sent).toMatchObject({ addressed: 2, sent: 2 });
    expect(sent.recipients!.map((row) => row.to).sort()).toEqual(["Baraka Ole <baraka@example.org>", null]);
    expect(JSON.stringify(sent)).not.toMatch(/amina|Amina/);
    // Her unsent one is gone.
    expect(await page(waiting.messageId)).toMatchObject({
      addressed: 1,
      sent: 0,
      failed: 0,
      waiting: 0,
      recipients: [],
    });
    const next = message("all");
    await post(next);
    expect(await queuedFor(next.messageId)).toEqual(["Baraka Ole <baraka@example.org>"]);
  });

  it("thanks those who came with a link to give, and counts the gifts made within 30 days for the event", async () => {
    // The event took place yesterday.
    await database.db
      .update(events)
      .set({ eventDate: new Date(clock.now().getTime() - day) })
      .where(eq(events.id, eventId));
    const offered = await callRoute(
      composePage,
      new Request(`${path()}?kind=thank-you`, { headers: { cookie } }),
      site,
      {
        params: { id: eventId },
      },
    );
    expect(offered.kind).toBe("thank-you");
    expect(offered.choices.map((choice) => choice.value)).toEqual(["checked-in"]);
    const fields = message("checked-in", { kind: "thank-you", subject: offered.form.subject, body: offered.form.body });
    await post(fields);
    await site.outbox.deliverDue();
    const [thanks] = smtp.sentTo("amina@example.org");
    expect(thanks!.text).toContain(`/payment?from=event:${eventId}`);
    expect(smtp.sentTo("baraka@example.org")).toHaveLength(0);

    // The link's page keeps where the donor came from, through the amount chosen, to the donation.
    const donatePage = async (query: string) => {
      try {
        return await callRoute(paymentPage, new Request(`http://localhost/payment${query}`), await services.request());
      } catch (thrown) {
        if (thrown instanceof Response) return { redirect: thrown.headers.get("Location") };
        throw thrown;
      }
    };
    expect(await donatePage(`?from=event:${eventId}`)).toMatchObject({
      from: `event:${eventId}`,
      view: { kind: "choose" },
    });
    expect(await donatePage(`?amount=20&from=event:${eventId}`)).toEqual({
      redirect: `/payment?amount=20.00&from=${encodeURIComponent(`event:${eventId}`)}`,
    });
    expect(await donatePage(`?amount=20.00&from=nonsense`)).toMatchObject({ from: null, view: { kind: "form" } });

    let visitor = 10;
    const give = async (from: string | undefined) => {
      const answer = (await callRoute(
        donationsApi,
        new Request("http://localhost/api/donations", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({
            amount: "20.00",
            name: "Amina Mushi",
            email: "amina@example.org",
            ...(from && { from }),
          }),
        }),
        await services.request(),
        { clientAddress: `203.0.113.${visitor++}` },
      )) as Response;
      expect(answer.status, await answer.clone().text()).toBe(201);
      const { donationId } = (await answer.json()) as { donationId: string };
      await database.db
        .update(donations)
        .set({ status: "paid", paidAt: clock.now() })
        .where(eq(donations.id, donationId));
      const [row] = await database.db.select().from(donations).where(eq(donations.id, donationId));
      return row!.eventId;
    };
    expect(await give(`event:${eventId}`)).toBe(eventId);
    expect(await give(undefined)).toBeNull();
    expect(await give(`event:${crypto.randomUUID()}`)).toBeNull();
    clock.advance(29 * day);
    expect(await give(`event:${eventId}`)).toBe(eventId);
    clock.advance(2 * day);
    expect(await give(`event:${eventId}`)).toBeNull();

    // A month on, a new sign-in (a session lasts hours).
    ({ cookie } = await signedInStaff(database.db, clock.now(), { email: "events@example.org" }));
    const shown = await callRoute(
      eventPage,
      new Request(`http://localhost/admin/events/${eventId}`, { headers: { cookie } }),
      await services.request(),
      {
        params: { id: eventId },
      },
    );
    expect(shown.messages.gifts).toMatchObject({ count: 2, pence: 4000 });
    // An Owner may see donations: each gift is listed.
    expect(shown.messages.gifts.list!.map((gift) => [gift.donorName, gift.amountPence])).toEqual([
      ["Amina Mushi", 2000],
      ["Amina Mushi", 2000],
    ]);
    // Each gift's own page names the event whose thank-you it followed.
    const gift = await callRoute(
      donationPage,
      new Request(`http://localhost/admin/donations/${shown.messages.gifts.list![0]!.id}`, { headers: { cookie } }),
      await services.request(),
      { params: { donationId: shown.messages.gifts.list![0]!.id } },
    );
    expect(gift.afterThankYou).toEqual({ eventId, name: expect.any(String) as string });
    // A member of staff who runs events but not money sees the count, not the donors.
    const { cookie: organiser } = await signedInStaff(database.db, clock.now(), {
      email: "organiser@example.org",
      role: "events",
    });
    const theirs = await callRoute(
      eventPage,
      new Request(`http://localhost/admin/events/${eventId}`, { headers: { cookie: organiser } }),
      await services.request(),
      { params: { id: eventId } },
    );
    expect(theirs.messages.gifts).toEqual({ count: 2, pence: 4000, list: null });
    expect(shown.messages.messages).toMatchObject([{ kind: "thank-you", sent: 1, failed: 0, waiting: 0 }]);
    const audits = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "event.thank-you-sent"), eq(auditLog.subject, `event:${eventId}`)));
    expect(audits).toHaveLength(1);
  });
});
