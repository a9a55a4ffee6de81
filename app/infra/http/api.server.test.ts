import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { AppError } from "~/lib/errors";
import { action as startBookingRoute } from "~/routes/api.bookings";
import type { Services } from "../../../server/services";
import { testClock } from "../../../tests/support/clock";
import { freshDatabase, insertEvent } from "../../../tests/support/databases";
import { callRoute, testServices, type TestServices } from "../../../tests/support/services";
import { apiRoute, readFormBody, readJsonBody, readTextBody } from "./api.server";
import { bodyLimits } from "./body-limits.server";

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

  it("say the length of a JSON answer, so a small one is not compressed", async () => {
    const answer = await apiRoute("test", async () => Response.json({ status: "succeeded" }, { status: 201 }));
    expect(answer.status).toBe(201);
    expect(answer.headers.get("Content-Length")).toBe(String('{"status":"succeeded"}'.length));
    expect(await answer.json()).toEqual({ status: "succeeded" });
    const refused = await apiRoute("test", async () => {
      throw new AppError("conflict", "Sold out.");
    });
    expect(Number(refused.headers.get("Content-Length"))).toBe((await refused.clone().arrayBuffer()).byteLength);
    // Anything but JSON (a CSV download, say) is passed on as it came.
    const csv = await apiRoute("test", async () => new Response("a,b\n", { headers: { "Content-Type": "text/csv" } }));
    expect(csv.headers.get("Content-Length")).toBeNull();
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
    const line = JSON.parse(String(logged[0]![0])) as { level: string; ref: string; where: string; error: object };
    expect(line).toMatchObject({ level: "error", ref: body.ref, where: "Doing a thing" });
    expect(JSON.stringify(line.error)).toContain(internal);
  });

  it("pass a thrown Response through as it is", async () => {
    const response = await apiRoute("test", async () => {
      throw new Response("Gone", { status: 410 });
    });
    expect(response.status).toBe(410);
  });
});

describe("a route whose feature fails inside", () => {
  const clock = testClock("2026-11-22T10:00:00Z");
  let database: DatabaseHandle;
  let site: TestServices;
  let services: Services;
  let logged: unknown[][];
  beforeEach(async () => {
    database = await freshDatabase("pglite");
    site = await testServices(database, clock);
    services = await site.request();
    logged = [];
    vi.spyOn(console, "error").mockImplementation((...args) => void logged.push(args));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await site.close();
  });

  async function post(services: Services, body: unknown) {
    const request = new Request("http://localhost/api/bookings", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const response = await callRoute(startBookingRoute, request, services, { clientAddress: "203.0.113.1" });
    return { status: response.status, text: await response.text() };
  }

  it("answers a provider failure with what the visitor can do, and keeps the provider's words to the log", async () => {
    const eventId = await insertEvent(database.db, {}, clock.now());
    services.payments.createPayment = async () => {
      throw new Error(`Invalid API Key provided: sk_live_abc123; ${internal}`);
    };
    const answer = await post(services, { eventId, name: "Amina Mushi", email: "amina@example.org", quantity: 2 });
    expect(answer.status).toBe(502);
    expect(answer.text).not.toContain("sk_live");
    expect(answer.text).not.toContain("ECONNREFUSED");
    expect(JSON.parse(answer.text)).toMatchObject({ code: "provider-unavailable", error: /nothing has been charged/ });
    expect(logged.flat().map(String).join("\n")).toContain("sk_live_abc123");
  });

  it("answers a database failure with a reference only", async () => {
    const eventId = await insertEvent(database.db, {}, clock.now());
    const broken = Object.create(database.db) as typeof database.db;
    broken.transaction = async () => {
      throw new Error(`relation "bookings" does not exist; ${internal}`);
    };
    const answer = await post(
      { ...services, db: broken },
      { eventId, name: "Amina Mushi", email: "amina@example.org", quantity: 2 },
    );
    expect(answer.status).toBe(500);
    expect(answer.text).not.toContain("relation");
    expect(answer.text).not.toContain("hunter2");
    const body = JSON.parse(answer.text) as { ref: string; error: string };
    expect(body.error).toContain(body.ref);
  });
});

describe("request bodies", () => {
  /** A body of `total` bytes in 16 KB chunks, made only as it is read; `pulled()` says how much was. */
  function streamedBody(total: number, fill = "a") {
    let sent = 0;
    const chunk = new TextEncoder().encode(fill.repeat(16 * 1024));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= total) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    return { body, pulled: () => sent };
  }

  function post(body: BodyInit, type: string, headers: Record<string, string> = {}) {
    return new Request("http://localhost/x", {
      method: "POST",
      headers: { "Content-Type": type, ...headers },
      body,
      duplex: "half",
    } as RequestInit);
  }

  it("past their cap are refused with 413 without being read further, chunked or declared", async () => {
    const json = streamedBody(50 * 1024 * 1024);
    await expect(readJsonBody(post(json.body, "application/json"))).rejects.toMatchObject({
      code: "payload-too-large",
    });
    expect(json.pulled()).toBeLessThanOrEqual(bodyLimits.form + 2 * 16 * 1024);

    const form = streamedBody(50 * 1024 * 1024);
    await expect(readFormBody(post(form.body, "application/x-www-form-urlencoded"))).rejects.toMatchObject({
      code: "payload-too-large",
    });
    expect(form.pulled()).toBeLessThanOrEqual(bodyLimits.form + 2 * 16 * 1024);

    const webhook = streamedBody(50 * 1024 * 1024);
    await expect(readTextBody(post(webhook.body, "application/json"), bodyLimits.webhook)).rejects.toMatchObject({
      code: "payload-too-large",
    });
    expect(webhook.pulled()).toBeLessThanOrEqual(bodyLimits.webhook + 2 * 16 * 1024);

    // A declared length over the cap is refused before the reader reads (the stream itself fills
    // its one-chunk queue as it is made).
    const declared = streamedBody(1024 * 1024);
    const request = post(declared.body, "application/json", { "Content-Length": String(1024 * 1024) });
    await expect(readJsonBody(request)).rejects.toMatchObject({ code: "payload-too-large" });
    expect(declared.pulled()).toBeLessThanOrEqual(16 * 1024);
  });

  it("within their cap are read whole", async () => {
    expect(await readJsonBody(post(JSON.stringify({ name: "Ann" }), "application/json"))).toEqual({ name: "Ann" });
    const form = await readFormBody(post("name=Ann&email=ann%40example.org", "application/x-www-form-urlencoded"));
    expect(form.get("email")).toBe("ann@example.org");
    expect(await readTextBody(post("{}", "application/json"), bodyLimits.webhook)).toBe("{}");
  });

  it("that are not a form, or a broken one, are refused as such by a form's reader", async () => {
    await expect(readFormBody(post('{"name":"Ann"}', "application/json"))).rejects.toMatchObject({
      code: "unsupported-media-type",
    });
    await expect(readFormBody(post("--x\r\nbroken", "multipart/form-data; boundary=x"))).rejects.toMatchObject({
      code: "invalid",
      message: "The form could not be read: please send it again.",
    });
    await expect(readJsonBody(post("{", "application/json"))).rejects.toMatchObject({ code: "invalid" });
  });

  it("nested too deeply are refused as invalid before they are parsed (the review's 40 KB of 20,000 arrays)", async () => {
    const deep = `{"content":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    await expect(readJsonBody(post(deep, "application/json"), bodyLimits.staff)).rejects.toMatchObject({
      code: "invalid",
      message: "The body is nested too deeply (at most 32 levels of objects and arrays).",
    });
    const fine = `{"content":${"[".repeat(31)}${"]".repeat(31)}}`;
    expect(await readJsonBody(post(fine, "application/json"))).toHaveProperty("content");
  });
});
