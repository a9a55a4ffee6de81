import { expect, test } from "@playwright/test";
import { startSiteProcess, type RunningSite } from "../support/site-process";

// Rate limits and a sign-in flood against the production build behind one trusted proxy
// (TRUST_PROXY=1): no browser, plain HTTP, as a proxy would forward it.

let site: RunningSite;
test.beforeAll(async () => {
  site = await startSiteProcess({ TRUST_PROXY: "1" });
});
test.afterAll(async () => {
  await site.stop();
});

const volunteer = {
  name: "Grace Kimaro",
  email: "grace@example.org",
  reason: "I would love to help at the quiz night.",
};

test("with one proxy trusted, a visitor who makes up a new left-most X-Forwarded-For each time still meets the volunteer limit", async () => {
  const send = (forwardedFor: string) =>
    fetch(`${site.url}/api/volunteers`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": forwardedFor },
      body: JSON.stringify(volunteer),
    });
  const statuses: number[] = [];
  // The proxy appends the address it was reached from (203.0.113.77) to whatever the visitor sent.
  for (let i = 0; i < 6; i++) statuses.push((await send(`10.0.${i}.1, 203.0.113.77`)).status);
  expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  // Another visitor behind the same proxy is someone else.
  expect((await send("10.0.0.1, 203.0.113.78")).status).toBe(201);
});

test("during a flood of 60 sign-ins at once, a static file and a page are answered while most checked passwords still wait", async () => {
  const events: string[] = [];
  let firstAnswer!: () => void;
  const answered = new Promise<void>((resolve) => (firstAnswer = resolve));
  // Sixty addresses, sixty unknown e-mails: no limit stops them, so every one wants a password check.
  const flood = Array.from({ length: 60 }, async (_, i) => {
    const response = await fetch(`${site.url}/api/admin/session`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": `198.51.100.${i}` },
      body: JSON.stringify({ email: `nobody${i}@example.org`, password: "a wrong password" }),
    });
    events.push(`sign-in ${response.status}`);
    firstAnswer();
    return response;
  });
  // Once the flood has reached the server (its first answer is back), ask for a static file and a page.
  await answered;
  const started = performance.now();
  const staticFile = fetch(`${site.url}/favicon.svg`).then(async (response) => {
    await response.arrayBuffer();
    events.push("static");
    console.log(`The static file answered in ${Math.round(performance.now() - started)} ms during the flood.`);
    return response.status;
  });
  const page = fetch(`${site.url}/admin/sign-in`).then(async (response) => {
    await response.text();
    events.push("page");
    return response.status;
  });
  expect(await staticFile).toBe(200);
  expect(await page).toBe(200);
  const responses = await Promise.all(flood);

  const checked = responses.filter((r) => r.status === 401).length;
  const refused = responses.filter((r) => r.status === 429);
  expect(checked + refused.length).toBe(60);
  for (const response of refused) expect(response.headers.get("Retry-After")).toMatch(/^\d+$/);
  expect(refused.length).toBeGreaterThan(0);
  // Both were answered before half of the checked sign-ins were: not stuck behind every hash.
  const checkedBefore = (label: string) =>
    events.slice(0, events.indexOf(label)).filter((e) => e === "sign-in 401").length;
  expect(checkedBefore("static")).toBeLessThan(checked / 2);
  expect(checkedBefore("page")).toBeLessThan(checked / 2);
});
