import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { logUnexpected } from "../app/infra/http/api.server";
import { bodyLimit, malformedPaths, requestLog } from "./requests";

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
});
