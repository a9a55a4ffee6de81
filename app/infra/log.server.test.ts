import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { errorResponse } from "./http/api.server";
import { loggedPath, logLine, logUnexpectedError, nameThisProcess, withRequest } from "./log.server";

describe("the log", () => {
  let lines: string[];
  beforeEach(() => {
    lines = [];
    vi.spyOn(console, "error").mockImplementation((line) => void lines.push(String(line)));
  });
  afterEach(() => vi.restoreAllMocks());

  it("logs an unexpected error as one JSON line with its request's id; the visitor's reference is that id's start", async () => {
    const response = await withRequest({ id: "0123456789ABCDEF" }, async () =>
      errorResponse(new Error("duplicate key (email)=(ann.smith@example.org)"), "Saving a thing"),
    );
    const body = (await response.json()) as { ref: string; error: string };
    expect(body.ref).toBe("01234567");
    expect(body.error).toContain("reference 01234567");
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: "error",
      ref: "01234567",
      requestId: "0123456789ABCDEF",
      where: "Saving a thing",
    });
    expect(typeof line.time).toBe("string");
    // No personal data: an address in an error's text is blanked.
    expect(lines[0]).not.toContain("ann.smith");
    expect(lines[0]).toContain("[e-mail]");
  });

  it("writes the request lines of one turn of the event loop together, each a JSON line, and what waits before an error", async () => {
    const written: string[] = [];
    vi.spyOn(console, "log").mockImplementation((text) => void written.push(String(text)));
    for (let i = 0; i < 300; i++) logLine("info", { msg: "request", path: `/${i}` });
    expect(written).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toHaveLength(1);
    const each = written[0]!.split("\n").map((line) => JSON.parse(line) as { path: string; level: string });
    expect(each.map((line) => line.path)).toEqual(Array.from({ length: 300 }, (_, i) => `/${i}`));
    expect(each.every((line) => line.level === "info")).toBe(true);

    logLine("info", { msg: "request", path: "/before" });
    logLine("error", { message: "boom" });
    expect(written.at(-1)).toContain('"/before"');
    expect(lines.at(-1)).toContain("boom");
  });

  it("as one of several processes on one output, names its process on every line and writes whole lines, 4,096 bytes at most at a time", async () => {
    const written: string[] = [];
    vi.spyOn(console, "log").mockImplementation((text) => void written.push(String(text)));
    nameThisProcess("2 of 3");
    try {
      for (let i = 0; i < 300; i++) logLine("info", { msg: "request", path: `/${i}` });
      await new Promise((resolve) => setImmediate(resolve));
      expect(written.length).toBeGreaterThan(5);
      for (const text of written) expect(Buffer.byteLength(text) + 1).toBeLessThanOrEqual(4_096);
      const each = written
        .flatMap((text) => text.split("\n"))
        .map((line) => JSON.parse(line) as Record<string, string>);
      expect(each.map((line) => line.path)).toEqual(Array.from({ length: 300 }, (_, i) => `/${i}`));
      expect(each.every((line) => line.process === "2 of 3")).toBe(true);
    } finally {
      nameThisProcess(undefined);
    }
  });

  it("gives an error outside any request a reference of its own", () => {
    const ref = logUnexpectedError(new Error("boom"), "A background job");
    expect(ref).toMatch(/^[0-9A-F]{8}$/);
    expect(JSON.parse(lines[0]!)).not.toHaveProperty("requestId");
  });

  it("keeps query strings and an invitation's token out of a logged path", () => {
    expect(loggedPath("/confirmation?ref=abc&email=ann%40example.org")).toBe("/confirmation");
    expect(loggedPath("/admin/join/secret-token?x=1")).toBe("/admin/join/[token]");
    expect(loggedPath("/api/bookings")).toBe("/api/bookings");
  });
});
