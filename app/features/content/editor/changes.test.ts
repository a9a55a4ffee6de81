import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ContentName } from "../schema";
import { publishChanges } from "./changes";
import { contentFields } from "./field-tree";
import { findSection, pageSections, sectionFields, sectionOf, withSection } from "./sections";

const fileContent = (name: ContentName) =>
  JSON.parse(fs.readFileSync(path.join("content", name, "content.json"), "utf8")) as Record<string, unknown>;

type Home = {
  subtitle: string;
  imageWheel: { images: { src: string; alt: string }[]; delay?: number };
  activeProjects: { title: string; imageBanner: { src: string; alt: string } }[];
  previousProjects: unknown[];
};

describe("the changes shown before Publish", () => {
  const home = fileContent("home") as unknown as Home & Record<string, unknown>;

  it("names a changed subtitle by its section and label, with the old and new words", () => {
    const draft = structuredClone(home);
    draft.subtitle = "A new subtitle for the spring.";
    expect(publishChanges("home", home, draft)).toEqual([
      {
        path: "subtitle",
        label: "Top of the page › Subtitle",
        before: home.subtitle,
        after: "A new subtitle for the spring.",
        picture: false,
      },
    ]);
  });

  it("finds nothing when the draft is the published page, even where the draft leaves a default out", () => {
    const draft = structuredClone(home);
    delete draft.imageWheel.delay;
    expect(publishChanges("home", home, draft)).toEqual([]);
    // Spaces around a text are not a change: the page keeps it trimmed.
    expect(publishChanges("home", home, { ...structuredClone(home), subtitle: ` ${home.subtitle} ` })).toEqual([]);
  });

  it("names pictures by what staff know them as, and a project's fields by the project", () => {
    const draft = structuredClone(home);
    draft.activeProjects[1]!.imageBanner.src = "uploads/2026/abc123";
    draft.activeProjects[1]!.title = "Classrooms";
    draft.imageWheel.images[0]!.alt = "The village at dawn";
    const names: Record<string, string> = { "uploads/2026/abc123": "Uploaded 27/11/2026: classroom.jpg" };
    const changes = publishChanges("home", home, draft, (src) => names[src]);
    expect(changes.map(({ label, before, after, picture }) => ({ label, before, after, picture }))).toEqual([
      {
        label: "Image wheel › Pictures › Picture 1 › Alt text",
        before: home.imageWheel.images[0]!.alt,
        after: "The village at dawn",
        picture: false,
      },
      {
        label: "Projects › Current projects › Project 2 › Title",
        before: home.activeProjects[1]!.title,
        after: "Classrooms",
        picture: false,
      },
      {
        label: "Projects › Current projects › Project 2 › Banner picture",
        before: home.activeProjects[1]!.imageBanner.src,
        after: "Uploaded 27/11/2026: classroom.jpg",
        picture: true,
      },
    ]);
  });

  it("lists a new project's fields in the form's order, and a part that does not pass yet spoils no other", () => {
    const draft = structuredClone(home) as Home & Record<string, unknown>;
    delete draft.imageWheel.delay;
    // As the form adds it: no address until it is published, its fields in another order.
    (draft.activeProjects as unknown[]).push({
      info: "An oven.",
      title: "Village Bakery",
      imagePreview: { src: "", alt: "" },
      imageBanner: { src: "", alt: "" },
      col1Text: "",
      col2Text: "",
      comingSoon: false,
      galleryImages: [],
    });
    const n = home.activeProjects.length + 1;
    expect(publishChanges("home", home, draft).map((c) => c.label)).toEqual([
      `Projects › Current projects › Project ${n} › Title`,
      `Projects › Current projects › Project ${n} › Summary`,
      `Projects › Current projects › Project ${n} › Coming soon`,
    ]);
  });

  it("says a page of one section without a section's name", () => {
    const volunteering = fileContent("volunteering");
    expect(publishChanges("volunteering", volunteering, { ...volunteering, formTitle: "Join us in 2027" })).toEqual([
      {
        path: "formTitle",
        label: "Heading above the sign-up form",
        before: "Join us in 2025",
        after: "Join us in 2027",
        picture: false,
      },
    ]);
  });
});

describe("the editor's sections", () => {
  it("divides the home page where its schema says, every field in one section", () => {
    const root = contentFields("home");
    const sections = pageSections(root);
    expect(sections.map(({ id, title, keys }) => ({ id, title, keys }))).toEqual([
      { id: "top-of-the-page", title: "Top of the page", keys: ["title", "subtitle", "quote"] },
      { id: "image-wheel", title: "Image wheel", keys: ["imageWheel"] },
      {
        id: "projects",
        title: "Projects",
        keys: ["activeProjectsTitle", "activeProjects", "previousProjectsTitle", "previousProjects"],
      },
      { id: "our-mission", title: "Our mission", keys: ["mission"] },
      { id: "video-block", title: "Video block", keys: ["video"] },
    ]);
    expect(sections.flatMap((s) => s.keys)).toEqual(root.fields.map((f) => f.key));
    expect(sectionFields(root, sections[2]!).fields.map((f) => f.key)).toEqual(sections[2]!.keys);
    expect(sectionOf(sections, "activeProjects.3.imageBanner.src")?.id).toBe("projects");
    expect(findSection(sections, "projects").title).toBe("Projects");
    expect(findSection(sections, "nonsense").id).toBe("top-of-the-page");
    expect(findSection(sections, null).id).toBe("top-of-the-page");
  });

  it("keeps a page that starts no section whole", () => {
    const root = contentFields("volunteering");
    expect(pageSections(root)).toEqual([{ id: "the-page", title: "The page", keys: root.fields.map((f) => f.key) }]);
  });

  it("puts a section's fields into the page, leaving the other sections' changes as they were", () => {
    const sections = pageSections(contentFields("home"));
    const draft: Record<string, unknown> = { ...fileContent("home"), title: "Draft title", quote: "Kept" };
    const video = { title: "Watch", text: "Our year", poster: { src: "pages/x", alt: "x" } };
    const saved = withSection(draft, findSection(sections, "video-block"), { video });
    expect(saved.video).toEqual(video);
    expect(saved.title).toBe("Draft title");
    expect(saved.quote).toBe("Kept");
    expect(saved.activeProjects).toEqual(draft.activeProjects);
    // An optional field of the section left out of the post is taken out; the draft is not changed.
    const top = withSection(draft, sections[0]!, { title: "New", subtitle: "Sub" });
    expect(top).not.toHaveProperty("quote");
    expect(draft.quote).toBe("Kept");
  });
});
