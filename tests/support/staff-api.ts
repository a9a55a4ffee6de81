import { expect, request, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import { staffAccount, type RunningSite } from "./site-process";

/**
 * Signs a page, or every page of a browser context, in as a member of staff: the session cookie
 * lands in the context's cookies. `url` is the site's address, unless the test's baseURL is the
 * site; `account` is the test site's staff account unless another is given.
 */
export async function signIn(
  browser: Page | BrowserContext,
  { url = "", account = staffAccount }: { url?: string; account?: { email: string; password: string } } = {},
): Promise<void> {
  const response = await browser.request.post(`${url}/api/admin/session`, { data: account });
  expect(response.status(), "staff sign-in").toBe(204);
}

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

/**
 * Opens a staff section by the staff navigation, as a person would: on a phone, through its
 * "Staff menu" first (the menu is folded below 960 px).
 */
export async function openStaffSection(page: Page, name: string): Promise<void> {
  const nav = page.getByRole("navigation", { name: "Staff pages" });
  const menu = nav.locator("summary");
  if (await menu.isVisible()) await menu.click();
  await nav.getByRole("link", { name, exact: true }).click();
}
