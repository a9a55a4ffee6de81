import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { bookingAnswers, bookings, eventQuestions, ticketTypes } from "~db/schema";
import { testClock } from "../../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { action as startBookingRoute } from "~/routes/api.bookings";
import { callRoute, testServices, type TestServices } from "../../../tests/support/services";

// Answers to an event's questions (decision 083): checked before anything is held, stored in the
// same statement as the booking, one per attendee (a seat) for a per-attendee question.

describe.each(engines)("answers at checkout on %s", (engine) => {
  let site: TestServices;
  let database: DatabaseHandle;
  let eventId: string;
  let adult: string;
  let table: string;
  let meal: string;
  let diet: string;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    site = await testServices(database, testClock("2026-07-01T10:00:00Z"));
    const now = new Date("2026-07-01T10:00:00Z");
    eventId = await insertEvent(database.db, { totalAvailableTickets: 40 }, now);
    [{ id: adult }] = (await database.db
      .select({ id: ticketTypes.id })
      .from(ticketTypes)
      .where(eq(ticketTypes.eventId, eventId))) as [{ id: string }];
    [{ id: table }] = (await database.db
      .insert(ticketTypes)
      .values({
        eventId,
        name: "Table of 4",
        pricePence: 4000,
        seatsPerTicket: 4,
        position: 1,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: ticketTypes.id })) as [{ id: string }];
    const questions = await database.db
      .insert(eventQuestions)
      .values([
        {
          eventId,
          question: "Meal",
          answerType: "choice",
          choices: ["Beef", "Fish"],
          required: true,
          position: 0,
          createdAt: now,
          updatedAt: now,
        },
        {
          eventId,
          question: "Dietary needs",
          answerType: "text",
          perAttendee: true,
          position: 1,
          createdAt: now,
          updatedAt: now,
        },
      ])
      .returning({ id: eventQuestions.id });
    meal = questions[0]!.id;
    diet = questions[1]!.id;
  });
  afterEach(() => site.close());

  const post = async (body: Record<string, unknown>) => {
    const services = await site.request();
    const request = new Request("http://localhost/api/bookings", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ eventId, name: "Amina Mushi", email: "amina@example.org", ...body }),
    });
    const response = await callRoute(startBookingRoute, request, services);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("stores the answers with the booking, one per attendee: a table of four is four", async () => {
    const started = await post({
      tickets: { [adult]: 1, [table]: 1 },
      answers: { [meal]: "Fish", [diet]: ["Vegan", "", "Nut allergy", "", ""] },
    });
    expect(started.status).toBe(201);
    const rows = await database.db
      .select({
        questionId: bookingAnswers.questionId,
        attendee: bookingAnswers.attendee,
        answer: bookingAnswers.answer,
      })
      .from(bookingAnswers)
      .where(eq(bookingAnswers.bookingRef, String(started.body.bookingRef)))
      .orderBy(bookingAnswers.attendee);
    expect(rows).toEqual([
      { questionId: meal, attendee: 0, answer: "Fish" },
      { questionId: diet, attendee: 1, answer: "Vegan" },
      { questionId: diet, attendee: 3, answer: "Nut allergy" },
    ]);
  });

  it("refuses missing, unlisted and surplus answers with a message on each field, holding nothing", async () => {
    const refused = await post({ tickets: { [adult]: 2 }, answers: { [diet]: ["x".repeat(201)] } });
    expect(refused).toMatchObject({
      status: 400,
      body: {
        code: "invalid",
        fields: {
          [`answers.${meal}`]: "Please answer this question.",
          [`answers.${diet}.1`]: "Please keep the answer to 200 characters or fewer.",
        },
      },
    });
    const unlisted = await post({ quantity: 1, tickets: { [adult]: 1 }, answers: { [meal]: "Pizza" } });
    expect(unlisted.body.fields).toEqual({ [`answers.${meal}`]: "Please choose one of the answers listed." });
    const surplus = await post({ tickets: { [adult]: 1 }, answers: { [meal]: "Beef", [diet]: ["a", "b"] } });
    expect(surplus.status).toBe(400);
    // The buyer's own mistakes are marked at the same time as the answers'.
    const both = await post({ name: "", tickets: { [adult]: 1 }, answers: {} });
    expect(Object.keys(both.body.fields as object).sort()).toEqual([`answers.${meal}`, "name"]);
    expect(await database.db.select().from(bookings)).toEqual([]);
    expect(await database.db.select().from(bookingAnswers)).toEqual([]);
  });

  it("asks nothing of an event without questions, and refuses answers to questions it does not ask", async () => {
    await database.db.delete(eventQuestions);
    expect((await post({ tickets: { [adult]: 1 } })).status).toBe(201);
    expect((await post({ tickets: { [adult]: 1 }, answers: { [meal]: "Fish" } })).status).toBe(400);
  });
});
