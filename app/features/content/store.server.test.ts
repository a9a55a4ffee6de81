import fs from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditLog, contentVersions, staffUsers } from "~db/schema";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { PictureLibrary } from "~/infra/images/uploads.server";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { contentCopy, readContent } from "../../../tests/support/content";
import { engines, freshDatabase } from "../../../tests/support/databases";
import { ContentStore } from "./store.server";
import { contentIssues, slugFromTitle, withProjectSlugs } from "./store";

function newProject(title: string) {
  const [first] = readContent("home").activeProjects;
  const { slug: _slug, ...rest } = first!;
  return { ...rest, title };
}

describe("a project's address made from its title", () => {
  it("is lower-case words joined by hyphens, never one already taken", () => {
    expect(slugFromTitle("Clean Water for Kilele!", new Set())).toBe("clean-water-for-kilele");
    expect(slugFromTitle("Café  Tables", new Set())).toBe("cafe-tables");
    expect(slugFromTitle("Well", new Set(["well", "well-2"]))).toBe("well-3");
    expect(slugFromTitle("¡¡!!", new Set())).toBe("project");
  });

  it("is given only to projects without one, unique among them", () => {
    const home = withProjectSlugs({
      activeProjects: [{ title: "New School" }, { title: "New School", slug: "" }],
      previousProjects: [{ title: "Old", slug: "new-school" }],
    }) as { activeProjects: { slug: string }[] };
    expect(home.activeProjects.map((p) => p.slug)).toEqual(["new-school-2", "new-school-3"]);
  });
});

describe("the content's mistakes, by dotted path", () => {
  it("names the field a schema mistake is in", () => {
    const home = readContent("home");
    const broken = { ...home, activeProjects: home.activeProjects.map((p, i) => (i === 1 ? { ...p, title: " " } : p)) };
    expect(contentIssues("home", broken)).toEqual([{ path: "activeProjects.1.title", message: expect.any(String) }]);
  });

  it("refuses a slug used by an active and a previous project", () => {
    const home = readContent("home");
    const slug = home.activeProjects[0]!.slug;
    const broken = { ...home, previousProjects: [{ ...home.previousProjects[0]!, slug }] };
    expect(contentIssues("home", broken)).toEqual([
      {
        path: "previousProjects.0.slug",
        message: `Another project has the address /project/${slug}: each needs its own.`,
      },
    ]);
  });

  it("asks for every picture to be described", () => {
    const volunteering = readContent("volunteering");
    expect(contentIssues("volunteering", { ...volunteering, image: { ...volunteering.image, alt: "" } })).toEqual([
      // The schema's own words, or the store's rule where the schema lets an empty alt through.
      { path: "image.alt", message: expect.any(String) },
    ]);
  });
});

describe.each(engines)("the content store on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let contentDir: string;
  let store: ContentStore;
  let staff: { id: string; email: string };

  function newStore(options: { watchFiles?: boolean } = {}) {
    return new ContentStore(database, {
      clock,
      contentDir,
      pictures: new PictureLibrary(path.resolve("content/images")),
      watchFiles: options.watchFiles ?? false,
    });
  }

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-22T09:00:00Z");
    contentDir = await contentCopy();
    const [row] = await database.db
      .insert(staffUsers)
      .values({ email: "trustee@example.org", passwordHash: "x", createdAt: clock.now() })
      .returning();
    staff = { id: row!.id, email: row!.email };
    store = newStore();
    await store.start();
  });
  afterEach(async () => {
    await store.stop();
    await database.close();
    await fs.rm(contentDir, { recursive: true, force: true });
  });

  it("imports the files when the database has none, once", async () => {
    expect((await store.published()).volunteering).toEqual(readContent("volunteering"));
    const history = await store.history("volunteering");
    expect(history).toEqual([
      expect.objectContaining({ number: 1, source: "file", publishedBy: { email: null }, restoredFrom: null }),
    ]);
    const again = newStore();
    await again.start();
    await again.stop();
    expect(await store.history("volunteering")).toHaveLength(1);
  });

  it("publishes a new version, clears the draft, audits it, and serves it at once", async () => {
    const volunteering = { ...readContent("volunteering"), formTitle: "Join us in 2027" };
    const saved = await store.saveDraft("volunteering", volunteering, staff);
    expect(saved.issues).toEqual([]);
    expect((await store.draft("volunteering"))?.content).toEqual(volunteering);
    expect((await store.published()).volunteering.formTitle).toBe("Join us in 2025");

    clock.advance(60_000);
    const result = await store.publish("volunteering", volunteering, staff);
    expect(result).toEqual({ ok: true, value: expect.objectContaining({ number: 2, source: "editor" }) });
    expect((await store.published()).volunteering.formTitle).toBe("Join us in 2027");
    expect(await store.draft("volunteering")).toBeUndefined();
    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.action, "content.published"));
    expect(entry).toMatchObject({ staffEmail: staff.email, subject: "content:volunteering" });
    expect((await store.history("volunteering")).map((v) => [v.number, v.publishedBy.email])).toEqual([
      [2, staff.email],
      [1, null],
    ]);
  });

  it("keeps a draft with mistakes, says where, and refuses to publish it", async () => {
    const volunteering = { ...readContent("volunteering"), title: "" };
    const saved = await store.saveDraft("volunteering", volunteering, staff);
    expect(saved.issues.map((issue) => issue.path)).toEqual(["title"]);
    expect((await store.draft("volunteering"))?.content).toEqual(volunteering);
    const result = await store.publish("volunteering", volunteering, staff);
    expect(result.ok).toBe(false);
    // Something that is not content at all is not kept.
    await expect(store.saveDraft("volunteering", "a heading", staff)).rejects.toMatchObject({
      code: "invalid",
      fields: { content: expect.any(String) },
    });
    expect(await store.history("volunteering")).toHaveLength(1);
    expect(await store.draft("volunteering")).toBeDefined();
  });

  it("refuses a picture that is neither on the site nor uploaded, beside its field", async () => {
    const volunteering = readContent("volunteering");
    const result = await store.publish(
      "volunteering",
      { ...volunteering, image: { src: "pages/no-such-picture", alt: "A picture" } },
      staff,
    );
    expect(result).toEqual({
      ok: false,
      issues: [{ path: "image.src", message: expect.stringContaining('no picture "pages/no-such-picture"') }],
    });
  });

  it("gives a new project an address from its title, and keeps it when renamed or moved", async () => {
    const home = readContent("home");
    const taken = home.activeProjects[0]!;
    const first = await store.publish(
      "home",
      { ...home, activeProjects: [...home.activeProjects, newProject(taken.title)] },
      staff,
    );
    if (!first.ok) throw new Error(JSON.stringify(first.issues));
    const added = first.value.content.activeProjects.at(-1)!;
    expect(added.slug).toBe(`${taken.slug}-2`);

    // Renamed, and moved to the previous projects: the same address.
    const renamed = { ...added, title: "Something else entirely" };
    const second = await store.publish(
      "home",
      {
        ...first.value.content,
        activeProjects: first.value.content.activeProjects.slice(0, -1),
        previousProjects: [...first.value.content.previousProjects, renamed],
      },
      staff,
    );
    if (!second.ok) throw new Error(JSON.stringify(second.issues));
    expect(second.value.content.previousProjects.at(-1)!.slug).toBe(added.slug);
    expect((await store.published()).home.previousProjects.at(-1)!.title).toBe("Something else entirely");
  });

  it("refuses a change to a published project's address", async () => {
    const home = readContent("home");
    const changed = {
      ...home,
      activeProjects: home.activeProjects.map((p, i) => (i === 0 ? { ...p, slug: "a-new-address" } : p)),
    };
    const result = await store.publish("home", changed, staff);
    expect(result).toEqual({
      ok: false,
      issues: [{ path: "activeProjects.0.slug", message: expect.stringContaining("never changes") }],
    });
  });

  it("restores an earlier version as a new one", async () => {
    const original = readContent("contact");
    await store.publish("contact", { ...original, title: "Write to us" }, staff);
    const [, first] = await store.history("contact");
    const restored = await store.restore("contact", first!.id, staff);
    expect(restored).toEqual({
      ok: true,
      value: expect.objectContaining({ number: 3, source: "restore", restoredFrom: 1 }),
    });
    expect((await store.published()).contact.title).toBe(original.title);
    expect(await store.version("contact", first!.id)).toMatchObject({ number: 1, content: original });
  });

  it("passes over a stored version the schema no longer takes, serves the one before, and says so", async () => {
    const about = readContent("about");
    await store.publish("about", { ...about, title: "About the trust" }, staff);
    // As if the schema had changed under it: the newest version now lacks a required field.
    const [newest] = await store.history("about");
    const { title: _title, ...broken } = { ...about, title: "x" };
    await database.db.update(contentVersions).set({ content: broken }).where(eq(contentVersions.id, newest!.id));

    const restarted = newStore();
    await restarted.start();
    expect((await restarted.published()).about.title).toBe(about.title);
    expect(restarted.warnings()).toEqual([
      { name: "about", number: 2, serving: 1, issues: [{ path: "title", message: expect.any(String) }] },
    ]);
    await restarted.stop();
  });

  it("imports a content file a developer changed, once, and keeps staff's edits of the others", async () => {
    await store.publish("contact", { ...readContent("contact"), title: "Write to us" }, staff);
    const file = path.join(contentDir, "volunteering", "content.json");
    const changed = { ...readContent("volunteering"), title: "Volunteer with Kilele" };
    await fs.writeFile(file, `${JSON.stringify(changed, null, 2)}\n`);

    const restarted = newStore();
    await restarted.start();
    const content = await restarted.published();
    expect(content.volunteering.title).toBe("Volunteer with Kilele");
    expect(content.contact.title).toBe("Write to us");
    await restarted.stop();
    const again = newStore();
    await again.start();
    await again.stop();
    expect(await store.history("volunteering")).toHaveLength(2);
  });

  it("in development, shows a content file edited while the site runs on the next request", async () => {
    const watching = newStore({ watchFiles: true });
    await watching.start();
    expect((await watching.published()).contact.title).toBe(readContent("contact").title);
    const file = path.join(contentDir, "contact", "content.json");
    await fs.writeFile(file, JSON.stringify({ ...readContent("contact"), title: "Say hello" }));
    // A time of its own, so the change is seen even within the file system's clock resolution.
    await fs.utimes(file, new Date(2030, 0, 1), new Date(2030, 0, 1));
    expect((await watching.published()).contact.title).toBe("Say hello");
    // A mistake in the file is logged and what is stored stays.
    await fs.writeFile(file, JSON.stringify({ ...readContent("contact"), title: "" }));
    await fs.utimes(file, new Date(2030, 0, 2), new Date(2030, 0, 2));
    expect((await watching.published()).contact.title).toBe("Say hello");
    await watching.stop();
  });

  it("keeps serving what is stored when a content file is broken", async () => {
    await fs.writeFile(path.join(contentDir, "about", "content.json"), "{ not json");
    const restarted = newStore();
    await restarted.start();
    expect((await restarted.published()).about).toEqual(readContent("about"));
    await restarted.stop();
  });

  it("previews a draft without publishing it", async () => {
    const volunteering = { ...readContent("volunteering"), title: "A draft title" };
    await store.saveDraft("volunteering", volunteering, staff);
    const preview = await store.preview(["volunteering"]);
    expect(preview.content.volunteering.title).toBe("A draft title");
    expect(preview.shown).toEqual(["volunteering"]);
    expect((await store.published()).volunteering.title).toBe(readContent("volunteering").title);
  });

  it("imports the files once when two processes start together on an empty database", async () => {
    await database.db.delete(contentVersions);
    const [a, b] = [newStore(), newStore()];
    await Promise.all([a.start(), b.start()]);
    await Promise.all([a.stop(), b.stop()]);
    expect(await store.history("home")).toHaveLength(1);
  });

  it("previews a new project at the address publishing will give it", async () => {
    const home = readContent("home");
    await store.saveDraft(
      "home",
      { ...home, activeProjects: [...home.activeProjects, newProject("Solar Lamps")] },
      staff,
    );
    const preview = await store.preview(["home"]);
    expect(preview.content.home.activeProjects.at(-1)).toMatchObject({ slug: "solar-lamps", title: "Solar Lamps" });
    const published = await store.publish("home", (await store.draft("home"))!.content, staff);
    expect(published.ok && published.value.content.activeProjects.at(-1)!.slug).toBe("solar-lamps");
  });

  it("hears a publish made by another store on the same database", async () => {
    const other = newStore();
    await other.start();
    await other.publish("volunteering", { ...readContent("volunteering"), formTitle: "Join us in 2030" }, staff);
    await expect.poll(async () => (await store.published()).volunteering.formTitle).toBe("Join us in 2030");
    await other.stop();
  });

  it("does not count its own publish's notice as a change again, so a page kept after it stays kept", async () => {
    const other = newStore();
    await other.start();
    await store.publish("volunteering", { ...readContent("volunteering"), formTitle: "Join us in 2031" }, staff);
    const afterPublish = store.changes;
    // The other process hearing the notice shows it has been delivered, to both.
    await expect.poll(async () => (await other.published()).volunteering.formTitle).toBe("Join us in 2031");
    await store.published();
    expect(store.changes).toBe(afterPublish);
    await other.stop();
  });
});

describe("a site with nothing stored and a broken content file", () => {
  it("refuses to start, naming the file and the field", async () => {
    const database = await freshDatabase("pglite");
    const contentDir = await contentCopy();
    const about = { ...readContent("about"), team: [] };
    await fs.writeFile(path.join(contentDir, "about", "content.json"), JSON.stringify(about));
    const store = new ContentStore(database, {
      clock: testClock(),
      contentDir,
      pictures: new PictureLibrary(path.resolve("content/images")),
      watchFiles: false,
    });
    await expect(store.start()).rejects.toThrow(/about\/content\.json is not valid:\n {2}team: /);
    await store.stop();
    await database.close();
    await fs.rm(contentDir, { recursive: true, force: true });
  });
});
