import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createStaffUser, sessionCookieName, startSession } from "../app/features/staff/staff.server";
import { parseConfig } from "../app/infra/config.server";
import type { DatabaseHandle } from "../app/infra/db/database.server";
import { logUnexpected } from "../app/infra/http/api.server";
import { bodyLimits } from "../app/infra/http/body-limits.server";
import { offlineProvider } from "../app/infra/payments/offline.server";
import { testClock } from "../tests/support/clock";
import { testCharity as charity } from "../tests/support/content";
import { freshDatabase } from "../tests/support/databases";
import { routeTable } from "../tests/support/route-table";
import { bodyCeiling, bodyLimit, malformedPaths, requestLog } from "./requests";

const megabyte = 1024 * 1024;

describe("every request", () => {
  let lines: string[];
  let server: ReturnType<express.Express["listen"]>;
  let url: string;
  beforeEach(async () => {
    lines = [];
    vi.spyOn(console, "log").mockImplementation((text) => void lines.push(...String(text).split("\n")));
    vi.spyOn(console, "error").mockImplementation((line) => void lines.push(String(line)));
    const app = express();
    app.use(requestLog());
    app.use(malformedPaths());
    app.use(bodyLimit());
    app.get("/fails", async (_req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      res.status(500).json({ ref: logUnexpected(new Error("boom"), "A test route") });
    });
    app.use((_req, res) => void res.status(204).end());
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await new Promise((resolve) => server.close(resolve));
  });

  const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  async function until(condition: () => boolean) {
    await vi.waitFor(() => expect(condition()).toBe(true));
  }

  it("is one JSON line with its id, method, path without the query string, status and time; the id goes back as X-Request-Id", async () => {
    const response = await fetch(`${url}/volunteering?email=ann%40example.org`, {
      headers: { Cookie: "kt_staff=secret", Authorization: "Bearer secret" },
    });
    const id = response.headers.get("X-Request-Id");
    expect(id).toMatch(/^[0-9A-F]{16}$/);
    await until(() => lines.length === 1);
    expect(logged()[0]).toMatchObject({
      level: "info",
      msg: "request",
      id,
      method: "GET",
      path: "/volunteering",
      status: 204,
    });
    expect(typeof logged()[0]!.ms).toBe("number");
    expect(lines[0]).not.toMatch(/ann|secret/);
  });

  it("logs its errors with its id, and the reference shown is that id's start", async () => {
    const response = await fetch(`${url}/fails`);
    const id = response.headers.get("X-Request-Id")!;
    const { ref } = (await response.json()) as { ref: string };
    await until(() => lines.length === 2);
    expect(ref).toBe(id.slice(0, 8));
    expect(logged().find((line) => line.level === "error")).toMatchObject({
      requestId: id,
      ref,
      where: "A test route",
    });
    expect(logged().find((line) => line.level === "info")).toMatchObject({ id, status: 500 });
  });

  it("is refused with 413, unread and with the connection closed, when its body declares more than the ceiling", async () => {
    const response = await fetch(`${url}/api/volunteers`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "x".repeat(1024 * 1024 + 1),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get("Connection")).toBe("close");
    expect(await response.json()).toMatchObject({ code: "payload-too-large" });
  });

  it("with a path that is not valid percent-encoding is refused with 400, and its log line says why", async () => {
    for (const path of ["/admin/bookings/%E0%A4%A", "/%", "/api/admin/emails/%C0%AE%C0%AE"]) {
      const response = await fetch(url + path);
      expect(response.status, path).toBe(400);
    }
    expect((await fetch(`${url}/api/x/%zz`)).headers.get("Content-Type")).toMatch(/^application\/json/);
    expect((await fetch(`${url}/fundraising-event/%C3%A9t%C3%A9`)).status).toBe(204);
    await until(() => lines.length === 5);
    expect(logged().filter((line) => line.status === 400)).toHaveLength(4);
    expect(logged()[0]).toMatchObject({ status: 400, refused: "a path that is not valid percent-encoding" });
  });

  /** Sends only the headers of a post that declares `bytes`, and the answer it gets before any of them. */
  function declare(path: string, bytes: number, type: string) {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const request = http.request(`${url}${path}`, {
        method: "POST",
        headers: { "Content-Type": type, "Content-Length": String(bytes) },
      });
      request.on("response", (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      });
      request.on("error", reject);
      request.flushHeaders();
    });
  }

  it("refuses a form posted without JavaScript with a page in its route's words, not JSON", async () => {
    const answer = await declare("/admin/pages/home", 64 * megabyte + 1, "multipart/form-data; boundary=x");
    expect(answer.status).toBe(413);
    expect(answer.headers["content-type"]).toMatch(/^text\/html/);
    expect(answer.headers.connection).toBe("close");
    expect(answer.body).toContain("<h1>Too large to send</h1>");
    expect(answer.body).toContain(
      "The form is too large to send at once (at most 64 MB): please upload fewer pictures at a time.",
    );
    expect(answer.body).toContain("Nothing was saved.");
    // The same form sent with JavaScript (React Router's .data request): the message alone, which
    // the page's error boundary shows.
    const data = await declare("/admin/pages/home.data", 64 * megabyte + 1, "multipart/form-data; boundary=x");
    expect(data.status).toBe(413);
    expect(data.headers["content-type"]).toMatch(/^text\/plain/);
    expect(data.body).toBe(
      "The form is too large to send at once (at most 64 MB): please upload fewer pictures at a time.",
    );
  });

  it("refuses on /api with JSON in the route's words: a picture's size beside its field", async () => {
    const answer = await declare("/api/admin/images", 16 * megabyte, "image/jpeg");
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      error: "The picture was not stored.",
      code: "payload-too-large",
      fields: { file: "must be at most 15 MB: this file is 16.0 MB" },
    });
    expect(JSON.parse((await declare("/api/volunteers", 16 * 1024 + 1, "application/json")).body)).toEqual({
      error: "The request is too large (at most 16 KB).",
      code: "payload-too-large",
    });
  });

  it("lets a 5 MB picture through to the page editor, with or without JavaScript", async () => {
    for (const path of ["/admin/pages/volunteering", "/admin/pages/volunteering.data"]) {
      const response = await fetch(`${url}${path}`, {
        method: "POST",
        headers: { "Content-Type": "multipart/form-data; boundary=x" },
        body: new Uint8Array(5 * megabyte),
      });
      expect(response.status, path).toBe(204);
    }
  });
});

/** A path the route answers: a page's name where it takes one (checked before its body is read), an id elsewhere. */
function samplePath(pattern: string) {
  const id = "00000000-0000-4000-8000-000000000000";
  return (
    "/" +
    pattern
      .replace(/:name\b/g, "home")
      .replace(/:[^/]+/g, id)
      .replace("*", "anything")
  );
}

/** The route modules, loaded by the test that needs them. */
const routeModules = import.meta.glob<{ action?: Action }>("../app/routes/*.{ts,tsx}");

type Action = (args: { request: Request; params: Record<string, string>; context: unknown }) => Promise<unknown>;

/** The status an action's answer has: returned or thrown, a Response or React Router's data(). */
function statusOf(answer: unknown): number {
  if (answer instanceof Response) return answer.status;
  const init = (answer as { type?: string; init?: { status?: number } } | null)?.init;
  if ((answer as { type?: string } | null)?.type === "DataWithResponseInit") return init?.status ?? 200;
  return 200;
}

// Each route's backstop (server/requests.ts) is exactly the limit the route reads its body with:
// every route of app/routes.ts with an action is sent bodies that declare one byte more than its
// path's ceiling (which it must refuse, or never read) and exactly the ceiling (which it must begin
// to read). A body is never sent: its first read fails, so nothing the route would do happens.
describe("each route's body ceiling", () => {
  const clock = testClock("2026-11-27T10:00:00Z");
  let database: DatabaseHandle;
  let services: object;
  beforeAll(async () => {
    database = await freshDatabase("pglite");
    const payments = offlineProvider(database.db, clock);
    services = {
      config: parseConfig({ PUBLIC_URL: "https://kilele.example" }),
      db: database.db,
      clock,
      payments,
      charity,
    };
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(() => {
    // What a route logs when the probe's body fails to arrive.
    vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  let staffCount = 0;
  /** A signed-in member of staff's cookie: each route gets its own, as two routes sign out. */
  async function staffCookie() {
    const user = await createStaffUser(
      database.db,
      `staff${++staffCount}@example.org`,
      "a long staff password",
      clock.now(),
    );
    const { token } = await startSession(database.db, user, clock.now());
    return `${sessionCookieName}=${token}`;
  }

  /** Calls the action with a body that declares `declared` bytes; says how it answered and whether it began to read. */
  async function probe(
    action: Action,
    path: string,
    sent: { method: string; type: string; cookie: string },
    declared: number,
  ) {
    let read = false;
    const body = new ReadableStream(
      {
        pull(controller) {
          read = true;
          controller.error(new Error("A probe: the body is never sent."));
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request(`https://kilele.example${path}`, {
      method: sent.method,
      headers: { "Content-Type": sent.type, "Content-Length": String(declared), Cookie: sent.cookie },
      body,
      duplex: "half",
    } as RequestInit);
    const params = new Proxy(
      {},
      { get: (_target, name) => (name === "name" ? "home" : "00000000-0000-4000-8000-000000000000") },
    );
    let status: number;
    try {
      status = statusOf(await action({ request, params: params as Record<string, string>, context: { services } }));
    } catch (thrown) {
      status = statusOf(thrown);
    }
    return { status, read };
  }

  const methods = ["POST", "PUT", "PATCH", "DELETE"];
  const types = [
    "application/json",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "image/png",
  ];

  it.each(routeTable)("$file: $pattern", async ({ file, pattern }) => {
    const path = samplePath(pattern);
    const ceiling = bodyCeiling(path);
    // A form posted with JavaScript goes to the same path with .data, to the same action.
    expect(bodyCeiling(`${path}.data`), `${path}.data`).toBe(ceiling);
    const { action } = await routeModules[`../app/${file}`]!();
    if (!action) {
      expect(ceiling, "a route with no action reads no body: the smallest ceiling").toBe(bodyLimits.form);
      return;
    }
    const cookie = await staffCookie();
    const refusedAsTooLarge: { method: string; type: string; cookie: string }[] = [];
    for (const method of methods) {
      for (const type of types) {
        const over = await probe(action, path, { method, type, cookie }, ceiling + 1);
        expect(over.read, `${method} ${type}: a body one byte past the ceiling, ${ceiling}, was read`).toBe(false);
        if (over.status === 413) refusedAsTooLarge.push({ method, type, cookie });
      }
    }
    if (refusedAsTooLarge.length === 0) {
      expect(ceiling, "a route that reads no body: the smallest ceiling").toBe(bodyLimits.form);
      return;
    }
    // One method per kind of body is enough to show it is read up to the ceiling.
    const kinds = refusedAsTooLarge.filter((sent, i) => refusedAsTooLarge.findIndex((s) => s.type === sent.type) === i);
    for (const sent of kinds) {
      const at = await probe(action, path, sent, ceiling);
      expect(at.read, `${sent.method} ${sent.type}: a body of the ceiling, ${ceiling}, was refused`).toBe(true);
    }
  });

  it("allows the page editor 64 MB, however its path is written", () => {
    for (const path of [
      "/admin/pages/home",
      "/admin/pages/home.data",
      "/admin/pages/home/",
      "/admin/pages/home/.data",
      "/Admin/Pages/about",
      "/admin/p%61ges/volunteering",
    ]) {
      expect(bodyCeiling(path), path).toBe(64 * megabyte);
    }
    expect(bodyCeiling("/admin/pages/home/history.data")).toBe(256 * 1024);
    expect(bodyCeiling("/admin/pages")).toBe(16 * 1024);
  });
});
