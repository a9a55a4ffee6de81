import { afterEach, describe, expect, it, vi } from "vitest";
import { publicCacheOf } from "~/infra/http/public-cache";
import { routeTable, serverRoutes, type RouteEntry } from "../tests/support/route-table";
import { isCandidate, PublicPages } from "./page-cache-paths";

// Which pages the page cache keeps comes from the routes' own `handle.publicCache`, read from the
// routes the server renders with (docs/decisions/064-cached-pages-named-by-their-routes.md).

const routes = await serverRoutes();
const pages = new PublicPages(routes);

/** A path the route answers, each parameter and splat filled in. */
function samplePath(pattern: string) {
  return "/" + pattern.replace(/:[^/]+/g, "a-name").replace("*", "anything");
}

function handleOf(route: RouteEntry) {
  return publicCacheOf(routes[route.id]!.module.handle);
}

const staffOrApi = (route: RouteEntry) => /^(admin|api)(\/|$)/.test(route.pattern);

/**
 * Visitors' pages rendered for each request, and why. A new page for visitors is either kept (its
 * route's `handle.publicCache`) or named here: the choice is made, not forgotten.
 */
const notKept: Record<string, string> = {
  "routes/book-event.tsx": "the booking form, which starts a payment",
  "routes/payment.tsx": "reads its query string: an amount, or a donor back from the payment provider",
  "routes/giving.token.tsx": "one donor's monthly gift, opened by their private link",
  "routes/giving.tsx": "answers a visitor's own form: a fresh link to their monthly gift",
  "routes/confirmation.tsx": "one visitor's booking, asked of the payment provider, and streamed",
  "routes/mock-event.tsx": "the trustees' test events page, kept out of search engines and the navigation",
  "routes/not-found.tsx": "a 404, which is never kept",
  "routes/fundraising-event.waiting-list.tsx": "answers a visitor's own form: joining an event's waiting list",
  "routes/waiting-list.decline.tsx": "one person's offer, named by the token in its link",
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the pages the cache keeps, named by their routes", () => {
  it("are the routes whose handle says so, each kept as its handle says, and no other", () => {
    for (const route of routeTable) expect(pages.kindOf(samplePath(route.pattern)), route.file).toBe(handleOf(route));
  });

  it("leave no page for visitors unaccounted for: each is kept, or named as not kept with why", () => {
    const visitorsPages = routeTable.filter(
      (route) => !staffOrApi(route) && typeof routes[route.id]!.module.default === "function",
    );
    for (const route of visitorsPages) {
      const kept = pages.kindOf(samplePath(route.pattern)) !== undefined;
      expect(kept || route.file in notKept, `${route.file}: kept, or in notKept with why`).toBe(true);
      expect(kept && route.file in notKept, `${route.file}: kept, yet in notKept`).toBe(false);
    }
    for (const file of Object.keys(notKept)) {
      expect(
        visitorsPages.map((route) => route.file),
        `${file} is a page for visitors`,
      ).toContain(file);
    }
  });

  it("never takes a staff or API path, whichever way it is asked for", () => {
    const closed = routeTable.filter(staffOrApi);
    expect(closed.map((route) => route.pattern)).toEqual(
      expect.arrayContaining(["admin", "api/admin/events", "api/*"]),
    );
    for (const route of closed) {
      expect(handleOf(route), `${route.file} says publicCache`).toBeUndefined();
      const path = samplePath(route.pattern);
      for (const asked of [path, `${path}?utm_source=news`, `${path}/`, path.toUpperCase()]) {
        expect(isCandidate("GET", asked, undefined, pages), asked).toBe(false);
        expect(isCandidate("HEAD", asked, undefined, pages), asked).toBe(false);
      }
    }
  });

  it("takes a page's address only as its route writes it", () => {
    expect(pages.kindOf("/")).toBe("live");
    expect(pages.kindOf("/about")).toBe("content");
    expect(pages.kindOf("/fundraising-event/abc")).toBe("live");
    expect(pages.kindOf("/project/well")).toBe("content");
    // What the parameter is is the route's to judge (an unknown one is a 404, never kept).
    expect(pages.kindOf("/project/caf%C3%A9")).toBe("content");
    expect(pages.kindOf("/project/a%2Fb")).toBe("content");
    // React Router answers these with the same pages, but each would be a key of its own.
    for (const path of ["/About", "/about/", "/%61bout", "//about", "/project/well/", "/PROJECT/well", "//"]) {
      expect(pages.kindOf(path), path).toBeUndefined();
    }
    // Near a public page, but not one.
    for (const path of ["/about.data", "/project", "/fundraising-event", "/fundraising-event/abc/calendar.ics"]) {
      expect(pages.kindOf(path), path).toBeUndefined();
    }
  });

  it("reads a path that is not valid percent-encoding without a warning, and leaves it to the site", () => {
    const warn = vi.spyOn(console, "warn");
    expect(pages.kindOf("/project/%E0%A4%A")).toBe("content");
    expect(pages.kindOf("/%E0%A4%A")).toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
  });
});
