import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { offlineProvider } from "~/infra/payments/offline.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";
import { AppError } from "~/lib/errors";
import { action as startBookingRoute } from "~/routes/api.bookings";
import { testClock } from "../../../tests/support/clock";
import { testCharity as charity } from "../../../tests/support/content";
import { freshDatabase, insertEvent } from "../../../tests/support/databases";
import { apiRoute } from "./api.server";

const internal = "connect ECONNREFUSED 10.1.2.3:5432 (password=hunter2)";

describe("API answers", () => {
  let logged: unknown[][];
  beforeEach(() => {
    logged = [];
    vi.spyOn(console, "error").mockImplementation((...args) => void logged.push(args));
  });
  afterEach(() => vi.restoreAllMocks());

  it("give an AppError's code as its status, with {error, code, fields}", async () => {
    const response = await apiRoute("test", async () => {
      throw new AppError("invalid", "The event is not valid.", { fields: { name: "must not be blank" } });
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "The event is not valid.",
      code: "invalid",
      fields: { name: "must not be blank" },
    });
    expect(logged).toEqual([]);
  });

  it("never show an unexpected error's text: a generic message with the reference it was logged under", async () => {
    const response = await apiRoute("Doing a thing", async () => {
      throw new Error(internal);
    });
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: string; code: string; ref: string };
    expect(JSON.stringify(body)).not.toContain("ECONNREFUSED");
    expect(JSON.stringify(body)).not.toContain("hunter2");
    expect(body.code).toBe("unexpected");
    expect(body.ref).toMatch(/^[0-9A-F]{8}$/);
    expect(body.error).toContain(`reference ${body.ref}`);
    expect(String(logged[0]![0])).toBe(`[${body.ref}] Doing a thing:`);
    expect(String(logged[0]![1])).toContain(internal);
  });

  it("pass a thrown Response through as it is", async () => {
    const response = await apiRoute("test", async () => {
      throw new Response("Gone", { status: 410 });
    });
    expect(response.status).toBe(410);
  });
});

describe("a route whose feature fails inside", () => {
  let database: DatabaseHandle;
  let logged: unknown[][];
  beforeEach(async () => {
    database = await freshDatabase("pglite");
    logged = [];
    vi.spyOn(console, "error").mockImplementation((...args) => void logged.push(args));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await database.close();
  });

  async function post(deps: PaymentDeps, body: unknown) {
    const request = new Request("http://localhost/api/bookings", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const limits = { paymentStarts: { attempt: async () => true } };
    const context = { clientAddress: "203.0.113.1", services: { paymentDeps: async () => deps, limits } };
    const response = await startBookingRoute({ request, context, params: {} } as unknown as Parameters<
      typeof startBookingRoute
    >[0]);
    return { status: response.status, text: await response.text() };
  }

  it("answers a provider failure with what the visitor can do, and keeps the provider's words to the log", async () => {
    const clock = testClock("2026-11-22T10:00:00Z");
    const eventId = await insertEvent(database.db, {}, clock.now());
    const payments = offlineProvider(database.db, clock);
    payments.createPayment = async () => {
      throw new Error(`Invalid API Key provided: sk_live_abc123; ${internal}`);
    };
    const answer = await post(
      { db: database.db, payments, charity, clock },
      { eventId, name: "Amina Mushi", email: "amina@example.org", quantity: 2 },
    );
    expect(answer.status).toBe(502);
    expect(answer.text).not.toContain("sk_live");
    expect(answer.text).not.toContain("ECONNREFUSED");
    expect(JSON.parse(answer.text)).toMatchObject({ code: "provider-unavailable", error: /nothing has been charged/ });
    expect(logged.flat().map(String).join("\n")).toContain("sk_live_abc123");
  });

  it("answers a database failure with a reference only", async () => {
    const clock = testClock("2026-11-22T10:00:00Z");
    const eventId = await insertEvent(database.db, {}, clock.now());
    const broken = Object.create(database.db) as typeof database.db;
    broken.transaction = async () => {
      throw new Error(`relation "bookings" does not exist; ${internal}`);
    };
    const answer = await post(
      { db: broken, payments: offlineProvider(database.db, clock), charity, clock },
      { eventId, name: "Amina Mushi", email: "amina@example.org", quantity: 2 },
    );
    expect(answer.status).toBe(500);
    expect(answer.text).not.toContain("relation");
    expect(answer.text).not.toContain("hunter2");
    const body = JSON.parse(answer.text) as { ref: string; error: string };
    expect(body.error).toContain(body.ref);
  });
});
