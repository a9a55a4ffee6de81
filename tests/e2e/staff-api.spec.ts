import { request as newRequest } from "@playwright/test";
import { expect, testWithOwnSite as test } from "../support/fixtures";
import { staffAccount } from "../support/site-process";
import { eventInput, staffApi } from "../support/staff-api";

test("without a staff session every staff endpoint answers 401 and changes nothing", async ({ request }) => {
  const id = crypto.randomUUID();
  const calls = [
    request.get("/api/admin/events"),
    request.post("/api/admin/events", { data: eventInput() }),
    request.get(`/api/admin/events/${id}`),
    request.patch(`/api/admin/events/${id}`, { data: { name: "x" } }),
    request.get("/api/admin/volunteers"),
    request.get("/api/admin/donations"),
    request.get(`/api/admin/events/${id}/tickets`),
    request.get(`/api/admin/bookings/${id}`),
  ];
  for (const response of await Promise.all(calls)) {
    expect(response.status(), response.url()).toBe(401);
    expect(await response.json()).toEqual({ error: "Sign in as staff to do this.", code: "unauthorised" });
  }
  const forged = await request.get("/api/admin/events", { headers: { Cookie: "kt_staff=made-up" } });
  expect(forged.status()).toBe(401);
});

test("signing in sets a safe session cookie; signing out ends the session", async ({ ownSite }) => {
  const api = await newRequest.newContext({ baseURL: ownSite.url });
  const signIn = await api.post("/api/admin/session", { data: { ...staffAccount, email: "STAFF@example.org" } });
  expect(signIn.status()).toBe(204);
  const cookie = signIn.headers()["set-cookie"]!;
  expect(cookie).toMatch(/^kt_staff=[\w-]{40,}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=28800/);
  expect((await api.get("/api/admin/events")).status()).toBe(200);
  expect((await api.delete("/api/admin/session")).status()).toBe(204);
  // The old token is dead on the server, not only forgotten by this client.
  const token = /kt_staff=([^;]+)/.exec(cookie)![1]!;
  const replay = await newRequest.newContext({
    baseURL: ownSite.url,
    extraHTTPHeaders: { Cookie: `kt_staff=${token}` },
  });
  expect((await replay.get("/api/admin/events")).status()).toBe(401);
});

test("wrong credentials get one generic answer, and repeated failures are slowed down", async ({ ownSite }) => {
  const api = await newRequest.newContext({ baseURL: ownSite.url });
  const wrongPassword = await api.post("/api/admin/session", {
    data: { email: staffAccount.email, password: "not the password" },
  });
  const unknownUser = await api.post("/api/admin/session", {
    data: { email: "nobody@example.org", password: "whatever" },
  });
  for (const response of [wrongPassword, unknownUser]) {
    expect(response.status()).toBe(401);
    expect(await response.json()).toEqual({ error: "The email or password is not right.", code: "unauthorised" });
    expect(response.headers()["set-cookie"]).toBeUndefined();
  }
  for (let i = 0; i < 9; i++) {
    await api.post("/api/admin/session", { data: { email: staffAccount.email, password: `guess ${i}` } });
  }
  // Even the right password is refused once the limit is reached, so guessing cannot go on.
  const limited = await api.post("/api/admin/session", { data: staffAccount });
  expect(limited.status()).toBe(429);
  expect((await limited.json()).error).toMatch(/Too many failed sign-in attempts/);
  const bad = await api.post("/api/admin/session", { data: "not json", headers: { "Content-Type": "text/plain" } });
  expect(bad.status()).toBe(415);
});

test("a bad event gets 400 naming each field and why, and nothing is stored", async ({ ownSite }) => {
  const api = await staffApi(ownSite);
  const bad = await api.post("/api/admin/events", {
    data: eventInput({
      name: " ",
      ticketCost: 12.345,
      totalAvailableTickets: -1,
      eventDate: "tomorrow",
      colour: "red",
    }),
  });
  expect(bad.status()).toBe(400);
  const body = await bad.json();
  expect(body.fields).toMatchObject({
    name: "must not be blank",
    ticketCost: "must be an amount in pounds, 0 or more, with at most two decimals",
    totalAvailableTickets: "must be 0 or more",
    eventDate: "must be an ISO 8601 date-time, e.g. 2026-12-05T19:00:00Z",
    body: "unknown field(s): colour",
  });
  expect((await (await api.get("/api/admin/events")).json()).events).toEqual([]);
  const notJson = await api.post("/api/admin/events", {
    data: "name=x",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  expect(notJson.status()).toBe(415);
});

test("staff create and change events with the spec's field names, and the public pages follow", async ({
  ownSite,
  page,
}) => {
  const api = await staffApi(ownSite);
  const created = await api.post("/api/admin/events", { data: eventInput({ name: "Barn Dance", ticketCost: 9.99 }) });
  expect(created.status()).toBe(201);
  const event = await created.json();
  expect(event).toMatchObject({
    id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    name: "Barn Dance",
    ticketCost: 9.99,
    totalAvailableTickets: 50,
    isTest: false,
    link: null,
    galleryImages: [],
  });
  await page.goto("/fundraising");
  await expect(page.locator("#latest-events")).toContainText("£9.99");

  const patched = await api.patch(`/api/admin/events/${event.id}`, {
    data: { ticketCost: null, location: "Village green" },
  });
  expect(patched.status()).toBe(200);
  expect(await patched.json()).toMatchObject({
    id: event.id,
    name: "Barn Dance",
    ticketCost: null,
    location: "Village green",
  });
  await page.reload();
  await expect(page.locator("#latest-events")).toContainText("Village green");
  await expect(page.locator("#latest-events")).not.toContainText("£9.99");

  const refused = await api.patch(`/api/admin/events/${event.id}`, {
    data: { ticketSaleExpiry: "2099-01-01T00:00:00Z" },
  });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).fields).toEqual({ ticketSaleExpiry: "must not be after eventDate" });
  expect((await api.patch(`/api/admin/events/${crypto.randomUUID()}`, { data: { name: "x" } })).status()).toBe(404);

  const listed = await (await api.get("/api/admin/events")).json();
  expect(listed.events[0]).toMatchObject({ id: event.id, availability: { sold: 0, remaining: 50, soldOut: false } });
});

test("staff read the volunteer sign-ups", async ({ ownSite, request }) => {
  await request.post("/api/volunteers", {
    data: { name: "Amina Mushi", email: "amina@example.org", reason: "To help." },
  });
  const api = await staffApi(ownSite);
  const { volunteers } = await (await api.get("/api/admin/volunteers")).json();
  expect(volunteers).toEqual([
    expect.objectContaining({ name: "Amina Mushi", email: "amina@example.org", reason: "To help." }),
  ]);
});
