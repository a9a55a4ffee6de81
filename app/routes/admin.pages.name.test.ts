import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HomeContent } from "~/features/content/schema";
import { sessionCookieName, startSession } from "~/features/staff/staff.server";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { staffUsers } from "~db/schema";
import { testClock, type TestClock } from "../../tests/support/clock";
import { engines, freshDatabase } from "../../tests/support/databases";
import { callRoute, testServices, type TestServices } from "../../tests/support/services";
import { action, loader } from "./admin.pages.name";

// The page editor a section at a time, and Publish after its changes are shown
// (docs/decisions/075-the-page-editor-by-sections.md), on a real database and the site's services.

describe.each(engines)("the home page's editor on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let services: TestServices;
  let cookie: string;
  let home: HomeContent;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-27T10:00:00Z");
    services = await testServices(database, clock);
    const [member] = await database.db
      .insert(staffUsers)
      .values({ email: "trustee@example.org", passwordHash: "not used here", createdAt: clock.now() })
      .returning({ id: staffUsers.id, email: staffUsers.email });
    const { token } = await startSession(database.db, member!, clock.now());
    cookie = `${sessionCookieName}=${token}`;
    home = (await (await services.request()).content()).home;
  });
  afterEach(() => services.close());

  const params = { name: "home" };
  const get = async (query = "") =>
    callRoute(
      loader,
      new Request(`http://localhost/admin/pages/home${query}`, { headers: { cookie } }),
      await services.request(),
      {
        params,
      },
    );
  /** The editor's post, as a section's form sends it. */
  async function post(fields: Record<string, string>) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    const request = new Request("http://localhost/admin/pages/home", {
      method: "POST",
      body: form,
      headers: { cookie },
    });
    const answer = (await callRoute(action, request, await services.request(), { params })) as unknown;
    // A redirect's address, or the form's answer (React Router's `data()` holds it with its status).
    if (answer instanceof Response) return answer.headers.get("location");
    return typeof answer === "object" && answer !== null && "data" in answer ? answer.data : answer;
  }
  const top = (subtitle: string) => ({
    section: "top-of-the-page",
    title: home.title,
    subtitle,
    quote: home.quote,
  });
  const draft = async () => (await (await services.request()).contentStore.draft("home"))?.content as HomeContent;

  it("saves one section into the draft and keeps what another section's save put there", async () => {
    expect(await post({ ...top("A subtitle for the spring."), intent: "draft" })).toBe("/admin/pages/home?saved=draft");
    const mission = {
      section: "our-mission",
      "mission.missionStatement": "Clean water first.",
      "mission.author": "Amina",
    };
    expect(await post({ ...mission, intent: "draft" })).toBe("/admin/pages/home?section=our-mission&saved=draft");
    const saved = await draft();
    expect(saved.subtitle).toBe("A subtitle for the spring.");
    expect(saved.mission).toEqual({ missionStatement: "Clean water first.", author: "Amina" });
    // The sections not posted are the published page's.
    expect(saved.activeProjects).toEqual(home.activeProjects);
    expect(saved.imageWheel).toEqual(home.imageWheel);

    // A section's link pressed with changes typed: saved first, then that section.
    expect(await post({ ...top("Later words."), intent: "draft", next: "projects" })).toBe(
      "/admin/pages/home?section=projects&saved=draft",
    );
    expect((await draft()).mission.author).toBe("Amina");
  });

  it("shows the draft's changes before it publishes, and publishes only the draft that was shown", async () => {
    expect(await post({ ...top("A subtitle for the spring."), intent: "review" })).toBe("/admin/pages/home?review");
    const review = await get("?review");
    expect(review.review?.changes).toEqual([
      {
        path: "subtitle",
        label: "Top of the page › Subtitle",
        before: home.subtitle,
        after: "A subtitle for the spring.",
        picture: false,
      },
    ]);
    // Nothing is published yet.
    expect((await (await services.request()).content()).home.subtitle).toBe(home.subtitle);

    // Someone saves the draft again meanwhile: the question is asked again with its changes now.
    const shown = review.review!.draftAt!;
    clock.advance(60_000);
    await post({ ...top("Another subtitle."), intent: "draft" });
    expect(await post({ intent: "publish", section: "top-of-the-page", draftAt: shown })).toBe(
      "/admin/pages/home?review&saved=changed",
    );
    expect((await (await services.request()).content()).home.subtitle).toBe(home.subtitle);

    const again = await get("?review");
    expect(again.review?.changes.map((c) => c.after)).toEqual(["Another subtitle."]);
    expect(await post({ intent: "publish", section: "top-of-the-page", draftAt: again.review!.draftAt! })).toBe(
      "/admin/pages/home?saved=published",
    );
    const published = (await (await services.request()).content()).home;
    expect(published.subtitle).toBe("Another subtitle.");
    expect(published.activeProjects).toEqual(home.activeProjects);
    expect(await draft()).toBeUndefined();
  });

  it("refuses Publish while a field is wrong, in this section or another, and publishes nothing", async () => {
    await post({ section: "our-mission", "mission.missionStatement": " ", "mission.author": "Amina", intent: "draft" });
    const answer = (await post({ ...top("A subtitle for the spring."), intent: "review" })) as {
      ok: boolean;
      message: string;
      fields: Record<string, string>;
    };
    expect(answer.ok).toBe(false);
    expect(answer.message).toBe("Nothing was published: please correct these fields.");
    expect(Object.keys(answer.fields)).toEqual(["mission.missionStatement"]);
    expect((await (await services.request()).content()).home.subtitle).toBe(home.subtitle);
  });
});
