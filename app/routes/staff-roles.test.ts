import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StaffRole } from "~/features/staff/roles";
import { sessionCookieName, startSession } from "~/features/staff/staff.server";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { staffUsers } from "~db/schema";
import { testClock, type TestClock } from "../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../tests/support/databases";
import { routeTable } from "../../tests/support/route-table";
import { callRoute, testServices, type TestServices } from "../../tests/support/services";

// Every staff page and staff API, read from the route table (app/routes.ts), called with a Door
// member's session: refused with 403 everywhere but check-in (docs/decisions/071-staff-roles.md).
// A route added later is covered without a line here; one that should be open to every member
// must be named below.

/** Open to every member signed in, or to nobody signed in: not a piece of work a role is for. */
const everyMember = new Set([
  "admin", // the staff area's frame
  "admin/account", // their own password and devices
  "admin/sign-in",
  "admin/sign-out",
  "admin/join/:token",
  "admin/forgot-password",
  "admin/reset-password/:token",
  "api/admin/session",
]);

/** What a Door member may open: check-in and an event's door list. */
const doorWork = new Set([
  "admin/check-in",
  "admin/check-in/ticket/:bookingRef",
  "admin/check-in/:id",
  "admin/events/:id/door-list",
  "api/admin/events/:id/check-ins",
  "api/admin/events/:id/guests",
]);

const staffRoutes = routeTable.filter(
  (route) => /^(admin|api\/admin)(\/|$)/.test(route.pattern) && !everyMember.has(route.pattern),
);

type Handler = (args: never) => Promise<unknown>;
interface RouteModule {
  loader?: Handler;
  action?: Handler;
}

const stateChanging = ["POST", "PUT", "PATCH", "DELETE"] as const;
const someId = "00000000-0000-4000-8000-000000000000";

/** The status a route's handler answered or threw with (200 for plain data). */
async function statusOf(work: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  const read = async (value: unknown) => {
    if (value instanceof Response) {
      const text = await value.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // A page or a file: its text.
      }
      return { status: value.status, body };
    }
    const answer = value as { type?: string; init?: { status?: number }; data?: unknown } | null;
    if (answer?.type === "DataWithResponseInit") return { status: answer.init?.status ?? 200, body: answer.data };
    return { status: 200, body: value };
  };
  try {
    return await read(await work);
  } catch (error) {
    return read(error);
  }
}

describe.each(engines)("roles on every staff route, on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let services: TestServices;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-07-01T10:00:00Z");
    services = await testServices(database, clock);
  });
  afterEach(() => services.close());

  async function sessionOf(role: StaffRole) {
    const [member] = await database.db
      .insert(staffUsers)
      .values({ email: `${role}@example.org`, passwordHash: "not used here", role, createdAt: clock.now() })
      .returning({ id: staffUsers.id });
    const { token } = await startSession(database.db, member!, clock.now());
    return `${sessionCookieName}=${token}`;
  }

  function requestFor(pattern: string, method: string, cookie: string, params: Record<string, string>) {
    const url = `http://localhost/${pattern.replace(/:(\w+)/g, (_, name: string) => params[name]!)}`;
    const api = pattern.startsWith("api/");
    return new Request(url, {
      method,
      headers: {
        cookie,
        ...(method !== "GET" && { "Content-Type": api ? "application/json" : "application/x-www-form-urlencoded" }),
      },
      ...(method !== "GET" && { body: api ? "{}" : "intent=save" }),
    });
  }

  function paramsOf(pattern: string, eventId: string) {
    const params: Record<string, string> = {};
    for (const [, name] of pattern.matchAll(/:(\w+)/g)) params[name!] = name === "id" ? eventId : someId;
    return params;
  }

  it("lists the routes it walks, so none is missed by a typo", () => {
    expect(staffRoutes.length).toBeGreaterThan(40);
    for (const pattern of [...doorWork]) expect(staffRoutes.map((r) => r.pattern)).toContain(pattern);
  });

  it("refuses a Door member with 403 on every staff page and API but check-in, for reading and for changing", async () => {
    const cookie = await sessionOf("door");
    const eventId = await insertEvent(database.db, {}, clock.now());
    const checked: string[] = [];
    for (const route of staffRoutes) {
      if (doorWork.has(route.pattern)) continue;
      const module = (await import(/* @vite-ignore */ path.resolve("app", route.file))) as RouteModule;
      const params = paramsOf(route.pattern, eventId);
      const api = route.pattern.startsWith("api/");
      const calls: Array<[string, Handler]> = [
        ...(module.loader ? [["GET", module.loader] as [string, Handler]] : []),
        ...(module.action ? stateChanging.map((method): [string, Handler] => [method, module.action!]) : []),
      ];
      expect(calls.length, route.pattern).toBeGreaterThan(0);
      let refused = 0;
      for (const [method, handler] of calls) {
        const request = requestFor(route.pattern, method, cookie, params);
        const { status, body } = await statusOf(callRoute(handler, request, await services.request(), { params }));
        // An API may turn away a method it never takes (405) before it asks who is calling.
        if (api && status === 405) continue;
        expect(status, `${method} /${route.pattern}`).toBe(403);
        if (api) expect(body, `${method} /${route.pattern}`).toMatchObject({ code: "forbidden" });
        else if (typeof body === "string") expect(body).toContain("You can't open this page");
        else
          expect(body, `${method} /${route.pattern}`).toMatchObject({ refused: { title: "You can't open this page" } });
        refused += 1;
        checked.push(`${method} /${route.pattern}`);
      }
      expect(refused, route.pattern).toBeGreaterThan(0);
    }
    expect(checked.length).toBeGreaterThan(80);
  });

  it("lets a Door member work at check-in, and sends them there from the staff home", async () => {
    const cookie = await sessionOf("door");
    const eventId = await insertEvent(database.db, {}, clock.now());
    const call = async (pattern: string, method = "GET") => {
      const route = routeTable.find((r) => r.pattern === pattern)!;
      const module = (await import(/* @vite-ignore */ path.resolve("app", route.file))) as RouteModule;
      const params = paramsOf(pattern, eventId);
      const handler = method === "GET" ? module.loader! : module.action!;
      return statusOf(
        callRoute(handler, requestFor(pattern, method, cookie, params), await services.request(), { params }),
      );
    };
    expect((await call("admin/check-in")).status).toBe(200);
    expect((await call("admin/check-in/:id")).status).toBe(200);
    expect((await call("admin/events/:id/door-list")).status).toBe(200);
    expect((await call("api/admin/events/:id/check-ins")).status).toBe(200);
    // The check-in API takes the Door's posts: an empty list is refused for its content, not its role.
    expect((await call("api/admin/events/:id/check-ins", "POST")).status).toBe(400);
    expect((await call("admin")).status).toBe(200);
    const redirected = await statusOf(
      callRoute(
        ((await import("./admin._index")) as RouteModule).loader!,
        requestFor("admin", "GET", cookie, {}),
        await services.request(),
      ),
    );
    expect(redirected.status).toBe(302);
  });

  it("gives each role its own pages: a Treasurer has money but not events, an Events member events but not money", async () => {
    const treasurer = await sessionOf("treasurer");
    const events = await sessionOf("events");
    const get = async (file: string, cookie: string) =>
      (
        await statusOf(
          callRoute(
            ((await import(/* @vite-ignore */ path.resolve("app/routes", file))) as RouteModule).loader!,
            new Request("http://localhost/admin/x", { headers: { cookie } }),
            await services.request(),
          ),
        )
      ).status;
    expect(await get("admin.donations._index.tsx", treasurer)).toBe(200);
    expect(await get("admin.events._index.tsx", treasurer)).toBe(403);
    expect(await get("admin.events._index.tsx", events)).toBe(200);
    expect(await get("admin.donations._index.tsx", events)).toBe(403);
    expect(await get("admin.staff.tsx", events)).toBe(403);
    expect(await get("admin.staff.tsx", treasurer)).toBe(403);
    expect(await get("admin._index.tsx", treasurer)).toBe(200);
  });
});
