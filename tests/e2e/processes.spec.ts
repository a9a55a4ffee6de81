import http from "node:http";
import { expect, test } from "../support/fixtures";
import { buyTickets } from "../support/bookings";
import { hydrated } from "../support/hydration";
import { createPostgresDatabase } from "../support/databases";
import { startSiteProcess } from "../support/site-process";
import { createEvent, staffApi } from "../support/staff-api";

// Several processes answering on one port, on PostgreSQL (SITE_PROCESSES, decision 047).

/** A GET on a connection of its own: Node's cluster hands each new connection to the next process. */
function getAlone(url: string, headers: http.OutgoingHttpHeaders = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        // React's markers between the parts of a sentence ("Only <!-- -->1<!-- --> ticket") left out.
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: body.replaceAll("<!-- -->", "") }));
      })
      .on("error", reject);
  });
}

/** The log's request lines for a path: which process answered each. */
function answeredBy(output: string, path: string): string[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{") && line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as { path: string; process?: string })
    .filter((line) => line.path === path)
    .map((line) => line.process ?? "none");
}

test.describe("several processes on one PostgreSQL database", () => {
  test.skip(!process.env.TEST_DATABASE_URL, "TEST_DATABASE_URL is not set: several processes need PostgreSQL");

  test("share the work and the sales; one that dies is replaced while the others answer; SIGTERM stops them all cleanly", async ({
    page,
    playwright,
  }) => {
    test.slow();
    const database = await createPostgresDatabase();
    const metricsToken = "a-scraper-token-of-32-characters";
    const site = await startSiteProcess({
      DATABASE_URL: database.url,
      SITE_PROCESSES: "2",
      METRICS_TOKEN: metricsToken,
    });
    try {
      // The site says it is up once both answer, each having said so with its pid.
      const started = site.output();
      expect(started).toMatch(/listening at http:\/\/\S+ \(2 processes\)/);
      const pids = [...started.matchAll(/Process (\d) of 2 \(pid (\d+)\) is answering/g)].map((m) => [m[1], m[2]]);
      expect(pids.map(([number]) => number).sort()).toEqual(["1", "2"]);

      const api = await staffApi(site);
      const event = await createEvent(api, { name: "Quiz Night", totalAvailableTickets: 1 });
      const fundraising = `${site.url}/fundraising`;
      for (let i = 0; i < 6; i += 1) {
        const page = await getAlone(fundraising);
        expect(page.status).toBe(200);
        expect(page.body).toContain("Only 1 ticket left");
      }
      // Each connection went to the next process: both answered.
      await expect.poll(() => new Set(answeredBy(site.output(), "/fundraising")).size).toBe(2);
      expect(new Set(answeredBy(site.output(), "/fundraising"))).toEqual(new Set(["1 of 2", "2 of 2"]));

      // One scrape of /metrics, whichever process it reaches, counts every process's requests.
      for (let i = 0; i < 2; i += 1) {
        const scraped = await getAlone(`${site.url}/metrics`, { authorization: `Bearer ${metricsToken}` });
        expect(scraped.status).toBe(200);
        expect(scraped.body).toContain('kilele_http_requests_total{route="/fundraising",method="GET",status="200"} 6');
      }

      // A visitor's browser on the events page, following the live feed of whichever process its
      // connection reached (each process hears every sale through the database).
      await page.goto(fundraising);
      await hydrated(page.locator("main"));
      const card = page.getByRole("article").filter({ hasText: "Quiz Night" });
      await expect(card.getByText("Only 1 ticket left")).toBeVisible();

      // The last seat, sold through whichever process takes the booking: every process shows it.
      const visitor = await playwright.request.newContext({ baseURL: site.url });
      await buyTickets(visitor, event.id, { name: "Amina Mushi", email: "amina@example.org", quantity: 1 });
      await expect
        .poll(async () => {
          const pages = await Promise.all(Array.from({ length: 6 }, () => getAlone(fundraising)));
          return pages.map((page) => (page.body.includes("Sold out") ? "sold out" : "not yet"));
        })
        .toEqual(Array(6).fill("sold out"));
      await expect(card.getByText("Sold out")).toBeVisible();
      // The page leaves before a process is killed: the live feed it follows may be that process's.
      await page.goto("about:blank");
      await visitor.dispose();

      // A process killed outright: the other answers meanwhile, and a new one takes its place.
      const [deadNumber, deadPid] = pids[0]!;
      process.kill(Number(deadPid), "SIGKILL");
      await expect
        .poll(() => site.output())
        .toContain(`Process ${deadNumber} of 2 (pid ${deadPid}) was stopped by SIGKILL: another takes its place`);
      for (let i = 0; i < 4; i += 1) expect((await getAlone(fundraising)).status).toBe(200);
      const replaced = new RegExp(`Process ${deadNumber} of 2 \\(pid (?!${deadPid}\\))(\\d+)\\) is answering`);
      await expect.poll(() => replaced.test(site.output())).toBe(true);
      expect((await getAlone(fundraising)).status).toBe(200);

      // SIGTERM: every process finishes and closes its database; the first exits cleanly.
      expect(await site.stop()).toBe(0);
      expect(site.output()).toContain("SIGTERM received: each process finishes its requests in flight, then stops.");
      expect(site.output().match(/Stopped cleanly\./g)).toHaveLength(2);
    } finally {
      await site.stop();
      await database.drop();
    }
  });
});

test("several processes are refused on the embedded database, whose folder one process alone may open", async () => {
  await expect(startSiteProcess({ SITE_PROCESSES: "2" })).rejects.toThrow(
    /SITE_PROCESSES: several processes need a PostgreSQL database \(DATABASE_URL\)/,
  );
});
