import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { crossSiteMessage, sameOriginOnly } from "./same-origin";

// The one rule for every change a browser could send from elsewhere (decision 053), in front of a
// stand-in for the site that records what reached it.

describe("the same-origin rule", () => {
  let server: ReturnType<express.Express["listen"]>;
  let url: string;
  let reached: string[];
  beforeEach(async () => {
    reached = [];
    const app = express();
    app.use(sameOriginOnly("https://www.kilele.example"));
    app.use((req, res) => {
      reached.push(`${req.method} ${req.path}`);
      res.status(201).json({ status: "ok" });
    });
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => new Promise((resolve) => server.close(resolve)));

  const post = (path: string, headers: Record<string, string>, method = "POST") =>
    fetch(url + path, {
      method,
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: "a=b",
    });

  it.each([
    ["another site", { Origin: "https://evil.example" }],
    ["a sibling subdomain", { Origin: "https://evil.kilele.example" }],
    ["another port of the same host", { Origin: "http://127.0.0.1:1" }],
    ["an opaque origin (a sandboxed frame, a data: page)", { Origin: "null" }],
    ["a Referer of another site, without Origin", { Referer: "https://evil.example/page" }],
    ["a browser that says it is cross-site", { "Sec-Fetch-Site": "cross-site" }],
    ["a browser that says it is the same site, not origin", { "Sec-Fetch-Site": "same-site" }],
  ])("refuses a volunteer sign-up from %s with 403, before the site sees it", async (_from, headers) => {
    const answer = await post("/api/volunteers", headers);
    expect(answer.status).toBe(403);
    expect(await answer.json()).toEqual({ error: crossSiteMessage, code: "forbidden" });
    expect(reached).toEqual([]);
  });

  it("refuses every changing method, and answers a page's form with a page", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const answer = await post("/api/admin/content/home/versions/1", { Origin: "https://evil.example" }, method);
      expect(answer.status, method).toBe(403);
    }
    const page = await post("/admin/sign-in", { Origin: "https://evil.example" });
    expect(page.status).toBe(403);
    expect(page.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(await page.text()).toContain(crossSiteMessage);
    expect(reached).toEqual([]);
  });

  it("lets through the site's own pages (by its address or PUBLIC_URL), readings, and requests no browser sent", async () => {
    const allowed = [
      await post("/api/volunteers", { Origin: url, "Sec-Fetch-Site": "same-origin" }),
      await post("/api/volunteers", { Origin: "https://www.kilele.example" }),
      await post("/volunteering", { Referer: `${url}/volunteering` }),
      await post("/api/payments/webhook", {}),
      await fetch(`${url}/about`, { headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" } }),
    ];
    expect(allowed.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201]);
    expect(reached).toEqual([
      "POST /api/volunteers",
      "POST /api/volunteers",
      "POST /volunteering",
      "POST /api/payments/webhook",
      "GET /about",
    ]);
  });
});
