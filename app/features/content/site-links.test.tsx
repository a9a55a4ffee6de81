import fs from "node:fs/promises";
import path from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Footer } from "~/components/layout/footer";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { PictureLibrary } from "~/infra/images/uploads.server";
import { siteFrame } from "~/lib/site";
import { action as publishRoute } from "~/routes/api.admin.content.name.versions";
import { contentVersions, staffUsers } from "~db/schema";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { contentCopy, readContent } from "../../../tests/support/content";
import { engines, freshDatabase } from "../../../tests/support/databases";
import { sessionCookieName, startSession } from "../staff/staff.server";
import { ContentStore } from "./store.server";

// The site settings' links (docs/decisions/056-one-rule-for-staff-links.md), through
// POST /api/admin/content/site/versions as the editor and the staff API send it: the security
// review's probes, which the footer of every page would otherwise have carried to another site.

describe.each(engines)("the site settings' links on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let contentDir: string;
  let store: ContentStore;
  let cookie: string;

  function newStore() {
    return new ContentStore(database, {
      clock,
      contentDir,
      pictures: new PictureLibrary(path.resolve("content/images")),
      watchFiles: false,
    });
  }

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-27T09:00:00Z");
    contentDir = await contentCopy();
    const [member] = await database.db
      .insert(staffUsers)
      .values({ email: "trustee@example.org", passwordHash: "not used here", createdAt: clock.now() })
      .returning({ id: staffUsers.id, email: staffUsers.email });
    const { token } = await startSession(database.db, member!, clock.now());
    cookie = `${sessionCookieName}=${token}`;
    store = newStore();
    await store.start();
  });
  afterEach(async () => {
    await store.stop();
    await database.close();
    await fs.rm(contentDir, { recursive: true, force: true });
  });

  async function publishSite(changes: Record<string, unknown>) {
    const request = new Request("http://localhost/api/admin/content/site/versions", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: cookie },
      body: JSON.stringify({ content: { ...readContent("site"), ...changes } }),
    });
    const context = { services: { db: database.db, clock, contentStore: store } };
    const response = await publishRoute({ request, context, params: { name: "site" } } as unknown as Parameters<
      typeof publishRoute
    >[0]);
    return { status: response.status, body: (await response.json()) as { fields?: Record<string, string> } };
  }

  function footerLinks(site: ReturnType<typeof readContent<"site">>) {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <Footer site={siteFrame(site)} />
      </MemoryRouter>,
    );
    return [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!);
  }

  it("refuses a privacy policy link that leaves the site, and publishes nothing", async () => {
    // A backslash or a tab after the slash: browsers read both as "//", the start of another host.
    for (const privacyPolicyUrl of [
      "/\\evil.example/x",
      "/\t/evil.example",
      "//evil.example",
      "https://evil.example/privacy.pdf",
      "javascript:alert(1)",
    ]) {
      const { status, body } = await publishSite({ privacyPolicyUrl });
      expect(status, privacyPolicyUrl).toBe(400);
      expect(body.fields).toEqual({ privacyPolicyUrl: expect.stringContaining("must be a path on this site") });
    }
    expect(await store.history("site")).toHaveLength(1);
    expect((await store.published()).site.privacyPolicyUrl).toBe("/privacy-policy.pdf");
  });

  it("refuses other links that are not plain https addresses, and publishes nothing", async () => {
    for (const address of ["https://user:pw@x.org", "http://x.org", "https:evil.example", "javascript:alert(1)"]) {
      const { status, body } = await publishSite({
        quizTicketingUrl: address,
        socialUrl: address,
        builderCredit: { name: "Website by Hillside Web Co-op", url: address },
      });
      expect(status, address).toBe(400);
      expect(body.fields).toEqual({
        quizTicketingUrl: expect.stringContaining("must be an address starting with https://"),
        socialUrl: expect.stringContaining("must be an address starting with https://"),
        "builderCredit.url": expect.stringContaining("must be an address starting with https://"),
      });
    }
    expect(await store.history("site")).toHaveLength(1);
  });

  it("publishes a path on this site and https addresses, and the footer links to them", async () => {
    const { status } = await publishSite({
      privacyPolicyUrl: "/documents/privacy-2026.pdf",
      socialUrl: "https://social.example.org/kilele",
      builderCredit: { name: "Website by Hillside Web Co-op", url: "https://hillside.example.org/" },
    });
    expect(status).toBe(201);
    expect(footerLinks((await store.published()).site)).toEqual([
      `mailto:${readContent("site").email}`,
      "/documents/privacy-2026.pdf",
      "https://social.example.org/kilele",
      "/mock-event",
      "https://hillside.example.org/",
    ]);
  });

  it("never serves a version published before the rule with a link off the site: the one before it is served, and staff told", async () => {
    const site = readContent("site");
    await database.db.insert(contentVersions).values({
      name: "site",
      number: 2,
      content: { ...site, privacyPolicyUrl: "/\\evil.example/x" },
      publishedAt: clock.now(),
      publishedByEmail: "trustee@example.org",
      source: "editor",
    });

    const restarted = newStore();
    await restarted.start();
    const served = (await restarted.published()).site;
    expect(served.privacyPolicyUrl).toBe("/privacy-policy.pdf");
    expect(footerLinks(served).filter((href) => href.includes("evil"))).toEqual([]);
    expect(restarted.warnings()).toEqual([
      {
        name: "site",
        number: 2,
        serving: 1,
        issues: [{ path: "privacyPolicyUrl", message: expect.stringContaining("must be a path on this site") }],
      },
    ]);
    await restarted.stop();
  });
});
