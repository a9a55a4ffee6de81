import { expect, request, type APIRequestContext } from "@playwright/test";
import { staffAccount, type RunningSite } from "./site-process";

/** An API client signed in as the test site's staff account. */
export async function staffApi(site: Pick<RunningSite, "url">): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: site.url });
  const response = await api.post("/api/admin/session", { data: staffAccount });
  expect(response.status(), "staff sign-in").toBe(204);
  return api;
}

const day = 24 * 60 * 60 * 1000;
const iso = (offsetDays: number) => new Date(Date.now() + offsetDays * day).toISOString();

/** A valid new event, on sale for a week, with whatever changes a test needs. */
export function eventInput(overrides: Record<string, unknown> = {}) {
  return {
    name: "Quiz Night",
    description: "Eight rounds of questions and a fish-and-chip supper.",
    posterImage: "pages/quiz-night",
    eventDate: iso(8),
    location: "St Mary's Church Hall",
    ticketCost: 12.5,
    totalAvailableTickets: 50,
    ticketSaleExpiry: iso(7),
    ...overrides,
  };
}

export const pastDates = { eventDate: iso(-30), ticketSaleExpiry: iso(-31) };

export async function createEvent(api: APIRequestContext, overrides: Record<string, unknown> = {}) {
  const response = await api.post("/api/admin/events", { data: eventInput(overrides) });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; name: string };
}
