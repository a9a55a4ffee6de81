import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EventFormValues } from "~/features/events/event-form";
import type { StaffQuestion } from "~/features/events/schema";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { doorList } from "~/features/door/door.server";
import { auditLog, bookingAnswers, eventQuestions, outbox } from "~db/schema";
import { testClock, type TestClock } from "../../tests/support/clock";
import { engines, freshDatabase } from "../../tests/support/databases";
import { callRoute, signedInStaff, testServices, type TestServices } from "../../tests/support/services";
import { action as editAction, loader as editLoader } from "./admin.events.id";
import { action as newAction } from "./admin.events.new";
import { action as eventApi } from "./api.admin.events.id";
import { action as startBookingRoute } from "./api.bookings";
import { action as offlineConfirm } from "./api.payments.offline.confirm";
import { loader as ticketsCsv } from "./admin.events.id.tickets-csv";
import { loader as exportLoader } from "./admin.people-export";
import { action as eraseAction } from "./api.admin.people.erase";

// An event's questions (decision 083) as staff set them on the event pages and the staff API, and
// their answers where staff read them: the tickets CSV, a person's export, and gone at erasure.

type QuestionRowPost = Partial<Record<"id" | "question" | "answerType" | "choices", string>> &
  Partial<Record<"required" | "perAttendee" | "shownAtDoor" | "notAsked" | "remove", boolean>>;

describe.each(engines)("questions on the staff event pages on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let services: TestServices;
  let cookie: string;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-07-01T10:00:00Z");
    services = await testServices(database, clock);
    ({ cookie } = await signedInStaff(database.db, clock.now()));
  });
  afterEach(() => services.close());

  function form(rows: QuestionRowPost[], intent = "save") {
    const body = new FormData();
    const all: Record<string, string> = {
      intent,
      name: "Burns Night Supper",
      description: "Haggis, neeps and tatties.",
      posterImage: "",
      eventDate: "2026-07-20T19:00",
      ticketSaleExpiry: "2026-07-19T12:00",
      location: "Village hall",
      ticketCost: "20.00",
      totalAvailableTickets: "80",
      link: "",
    };
    for (const [name, value] of Object.entries(all)) body.append(name, value);
    rows.forEach((row, i) => {
      const at = (part: string) => `questions.${i}.${part}`;
      body.append(at("id"), row.id ?? "");
      body.append(at("question"), row.question ?? "");
      body.append(at("answerType"), row.answerType ?? "text");
      body.append(at("choices"), row.choices ?? "");
      for (const part of ["required", "perAttendee", "shownAtDoor", "notAsked", "remove"] as const)
        if (row[part]) body.append(at(part), "on");
    });
    return body;
  }
  async function post(url: string, body: FormData, params: Record<string, string> = {}) {
    const action = url === "/admin/events/new" ? newAction : editAction;
    const request = new Request(`http://localhost${url}`, { method: "POST", body, headers: { cookie } });
    const answer = (await callRoute(action, request, await services.request(), { params })) as unknown;
    if (answer instanceof Response) return { location: answer.headers.get("location") };
    return (
      answer as { data: { fields?: Record<string, string>; values?: { event: EventFormValues }; focus?: string } }
    ).data;
  }
  async function page(id: string) {
    const request = new Request(`http://localhost/admin/events/${id}`, { headers: { cookie } });
    return (await callRoute(editLoader, request, await services.request(), { params: { id } })) as unknown as {
      values: EventFormValues;
      questions: StaffQuestion[];
    };
  }
  const mealAndDiet: QuestionRowPost[] = [
    { question: "Meal", answerType: "choice", choices: "Beef\r\nFish\r\n\r\nVegetarian", required: true },
    { question: "Dietary needs", answerType: "text", perAttendee: true, shownAtDoor: true },
  ];
  async function createSupper() {
    const made = await post("/admin/events/new", form(mealAndDiet));
    const id = /\/admin\/events\/([0-9a-f-]+)/.exec(String((made as { location: string }).location))![1]!;
    return id;
  }
  async function book(eventId: string, answers: Record<string, unknown>, quantity = 2) {
    const site = await services.request();
    const request = new Request("http://localhost/api/bookings", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ eventId, name: "Amina Mushi", email: "amina@example.org", quantity, answers }),
    });
    const response = await callRoute(startBookingRoute, request, site);
    const started = (await response.json()) as { bookingRef: string; clientSecret: string };
    const confirm = new Request("http://localhost/api/payments/offline/confirm", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        clientSecret: started.clientSecret,
        card: { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" },
      }),
    });
    await callRoute(offlineConfirm, confirm, site);
    return started.bookingRef;
  }

  it("adds questions on the new event form, choices one per line, in the audit log", async () => {
    const id = await createSupper();
    const { questions, values } = await page(id);
    expect(questions).toMatchObject([
      { question: "Meal", answerType: "choice", choices: ["Beef", "Fish", "Vegetarian"], required: true, answered: 0 },
      { question: "Dietary needs", answerType: "text", choices: [], perAttendee: true, shownAtDoor: true, asked: true },
    ]);
    expect(values.questions[0]).toMatchObject({ question: "Meal", choices: "Beef\nFish\nVegetarian" });
    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.action, "event.created"));
    expect(entry!.summary).toContain("questions: added “Meal”; added “Dietary needs”");
  });

  it("adds a question row without JavaScript, saving nothing, and refuses a list with fewer than two choices", async () => {
    const added = await post("/admin/events/new", form(mealAndDiet, "add-question"));
    expect(added).toMatchObject({ focus: "event-questions-2-question" });
    expect((added as { values: { event: EventFormValues } }).values.event.questions).toHaveLength(3);
    expect(await database.db.select().from(eventQuestions)).toEqual([]);
    const refused = await post(
      "/admin/events/new",
      form([{ question: "Meal", answerType: "choice", choices: "Beef" }]),
    );
    expect((refused as { fields: Record<string, string> }).fields).toEqual({
      "questions.0.choices": "must list at least two answers to choose from, one per line",
    });
  });

  it("lets an answered question be reworded but not deleted, and keeps its answers in the CSV and the export", async () => {
    const id = await createSupper();
    const [meal, diet] = (await page(id)).questions;
    const ref = await book(id, { [meal!.id]: "Fish", [diet!.id]: ["Vegan", "Nut allergy"] });
    expect(await database.db.select().from(bookingAnswers)).toHaveLength(3);
    // The buyer's receipt lists them; the door sees only those marked Show at the door.
    const receipts = (await database.db.select().from(outbox)).filter((row) => row.kind === "booking-receipt");
    const receipt = String(receipts[0]!.payload.text);
    expect(receipt).toContain("Your answers");
    expect(receipt).toContain("Meal: Fish");
    expect(receipt).toContain("Dietary needs (Attendee 2): Nut allergy");
    const door = await doorList({ db: database.db }, id, clock.now());
    expect(door!.tickets[0]!.atDoor).toEqual([
      "Dietary needs (Attendee 1): Vegan",
      "Dietary needs (Attendee 2): Nut allergy",
    ]);

    // The form: Delete is not offered for it; posted anyway, nothing is saved.
    const rows = (await page(id)).values.questions;
    const refused = await post(`/admin/events/${id}`, form([{ ...rows[0]!, remove: true }, rows[1]!]), { id });
    expect((refused as { fields: Record<string, string> }).fields).toEqual({
      questions: "must keep “Meal”: it has answers, so it can be reworded or no longer asked, not deleted",
    });
    // The API: the same rule; rewording is allowed, and changing what its answers mean is not.
    const patch = async (body: unknown) => {
      const request = new Request(`http://localhost/api/admin/events/${id}`, {
        method: "PATCH",
        headers: { "Content-Type": "application/json", cookie },
        body: JSON.stringify(body),
      });
      const response = (await callRoute(eventApi, request, await services.request(), { params: { id } })) as Response;
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    expect((await patch({ questions: [{ id: diet!.id }] })).status).toBe(400);
    expect((await patch({ questions: [{ id: meal!.id, answerType: "text" }, { id: diet!.id }] })).body.fields).toEqual({
      "questions.0.answerType": "must stay “One of a list”: the question has answers, which would lose their meaning",
    });
    const reworded = await patch({ questions: [{ id: meal!.id, question: "Main course" }, { id: diet!.id }] });
    expect(reworded.status).toBe(200);
    expect(reworded.body.questions).toMatchObject([
      { question: "Main course", answered: 1 },
      { question: "Dietary needs", answered: 1 },
    ]);
    const [changed] = await database.db.select().from(auditLog).where(eq(auditLog.action, "event.changed"));
    expect(changed!.summary).toContain("questions: “Meal”: reworded “Main course”");

    // The tickets CSV: a column per question, each attendee's answer in it.
    const csvRequest = new Request(`http://localhost/admin/events/${id}/tickets.csv`, { headers: { cookie } });
    const csv = await (
      (await callRoute(ticketsCsv, csvRequest, await services.request(), { params: { id } })) as Response
    ).text();
    const [header, line] = csv.trim().split(/\r?\n/);
    expect(header).toMatch(/Ticket types,Main course,Dietary needs$/);
    expect(line).toMatch(/,Fish,1: Vegan; 2: Nut allergy$/);

    // A person's export has them; erasure deletes them, and the booking's seats and money stay.
    const exportRequest = new Request("http://localhost/admin/people/export?email=amina@example.org", {
      headers: { cookie },
    });
    const exported = (await (
      (await callRoute(exportLoader, exportRequest, await services.request())) as Response
    ).json()) as { bookings: { bookingReference: string; answers: unknown[] }[] };
    expect(exported.bookings[0]).toMatchObject({
      bookingReference: ref,
      answers: [
        { question: "Main course", attendee: 0, answer: "Fish" },
        { question: "Dietary needs", attendee: 1, answer: "Vegan" },
        { question: "Dietary needs", attendee: 2, answer: "Nut allergy" },
      ],
    });
    const erase = new Request("http://localhost/api/admin/people/erase", {
      method: "POST",
      headers: { "Content-Type": "application/json", cookie },
      body: JSON.stringify({ email: "amina@example.org" }),
    });
    const erased = (await ((await callRoute(eraseAction, erase, await services.request())) as Response).json()) as {
      erased: { answersDeleted: number };
    };
    expect(erased.erased.answersDeleted).toBe(3);
    expect(await database.db.select().from(bookingAnswers)).toEqual([]);
    // Once its answers are gone, the question can be deleted.
    expect((await patch({ questions: [{ id: diet!.id }] })).status).toBe(200);
  });

  it("stops asking a question staff mark No longer asked, keeping it for its answers", async () => {
    const id = await createSupper();
    const rows = (await page(id)).values.questions;
    const saved = await post(`/admin/events/${id}`, form([rows[0]!, { ...rows[1]!, notAsked: true }]), { id });
    expect(saved).toEqual({ location: `/admin/events/${id}?saved=saved` });
    const [meal] = (await page(id)).questions;
    // Asked no more: a booking answering only the meal is taken.
    const ref = await book(id, { [meal!.id]: "Beef" }, 1);
    expect(await database.db.select().from(bookingAnswers).where(eq(bookingAnswers.bookingRef, ref))).toHaveLength(1);
  });
});
