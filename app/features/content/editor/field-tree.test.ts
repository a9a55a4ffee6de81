import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { contentFiles, type ContentName } from "../schema";
import { fieldLabel } from "./field-labels";
import { contentFields, fieldTree, type FieldNode, type ObjectNode } from "./field-tree";
import { applyFormOp, parseFormOp } from "./form-ops";
import { readContentForm } from "./form-values";

const names = Object.keys(contentFiles) as ContentName[];
const fileContent = (name: ContentName) =>
  JSON.parse(fs.readFileSync(path.join("content", name, "content.json"), "utf8")) as Record<string, unknown>;

function form(entries: Record<string, string>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(entries)) data.append(key, value);
  return data;
}

/** Every field of a tree with its path, lists read through their item. */
function allFields(node: FieldNode, at = ""): { path: string; node: FieldNode }[] {
  const here = at ? [{ path: at, node }] : [];
  if (node.kind === "object")
    return [...here, ...node.fields.flatMap((f) => allFields(f, [at, f.key].filter(Boolean).join(".")))];
  if (node.kind === "list") return [...here, ...allFields(node.item, `${at}.*`)];
  if (node.kind === "choice")
    return [...here, ...node.options.flatMap((o) => o.fields.flatMap((f) => allFields(f, `${at}.${f.key}`)))];
  return here;
}

describe("the editor's fields, from the content schemas", () => {
  it.each(names)("every field of %s has a label from its schema, and none is left without an input", (name) => {
    for (const { path: at, node } of allFields(contentFields(name))) {
      expect(node.kind, at).not.toBe("unknown");
      // A label the schema gives (not made from the key): list items are labelled by their list.
      if (!at.endsWith("*")) expect(node.title, at).not.toBe("");
    }
  });

  it("reads the kinds of field from the schemas: long texts, pictures, a project's address, lists, a video's kinds", () => {
    const home = contentFields("home");
    const byPath = new Map(allFields(home).map(({ path: p, node }) => [p, node]));
    expect(byPath.get("title")).toMatchObject({ kind: "text", long: false, title: "Title", required: true });
    expect(byPath.get("activeProjects.*.col1Text")).toMatchObject({ kind: "text", long: true });
    expect(byPath.get("activeProjects.*.imageBanner")).toMatchObject({ kind: "image", title: "Banner picture" });
    expect(byPath.get("activeProjects.*.slug")).toMatchObject({ kind: "slug", prefix: "/project/" });
    expect(byPath.get("activeProjects.*.comingSoon")).toMatchObject({ kind: "boolean", title: "Coming soon" });
    expect(byPath.get("activeProjects.*.testimonial")).toMatchObject({ kind: "object", required: false });
    expect(byPath.get("activeProjects")).toMatchObject({
      kind: "list",
      title: "Current projects",
      moveTo: { field: "previousProjects" },
    });
    expect(byPath.get("imageWheel.delay")).toMatchObject({ kind: "number", default: 10, required: false });
    const source = byPath.get("video.source");
    expect(source).toMatchObject({ kind: "choice", discriminator: "kind", required: false });
    expect(source?.kind === "choice" && source.options.map((o) => o.value)).toEqual(["file", "youtube"]);
    expect(contentFields("payment").fields.find((f) => f.key === "presetAmounts")).toMatchObject({
      kind: "list",
      minItems: 1,
      item: { kind: "number", integer: true },
    });
  });

  it("shows a field added to a schema, with the label and help its schema gives", () => {
    const schema = z.object({
      title: z.string().meta({ title: "Title" }),
      newsletterUrl: z.url().optional().meta({ title: "Newsletter sign-up", description: "Its https:// address." }),
      openDays: z.array(z.string().meta({ title: "Day" })).meta({ title: "Open days" }),
    });
    const tree = fieldTree(z.toJSONSchema(schema, { io: "input" }) as never) as ObjectNode;
    expect(tree.fields.map((f) => [f.key, f.kind, f.title, f.required])).toEqual([
      ["title", "text", "Title", true],
      ["newsletterUrl", "text", "Newsletter sign-up", false],
      ["openDays", "list", "Open days", true],
    ]);
    expect(tree.fields[1]!.description).toBe("Its https:// address.");
  });
});

describe("reading the posted form back into the content", () => {
  const volunteering = contentFields("volunteering");

  it("reads texts and pictures by their dotted names", () => {
    const read = readContentForm(
      volunteering,
      form({
        title: "Volunteering",
        description: "Help us.",
        "image.src": "pages/sponsored-walk",
        "image.alt": "Walkers",
        "image._file": "",
        col1Text: "One",
        col2Text: "Two",
        formTitle: "Join us in 2027",
        formIntro: "Fill it in.",
      }),
    );
    expect(read.problems).toEqual({});
    expect(read.value).toEqual({
      title: "Volunteering",
      description: "Help us.",
      image: { src: "pages/sponsored-walk", alt: "Walkers" },
      col1Text: "One",
      col2Text: "Two",
      formTitle: "Join us in 2027",
      formIntro: "Fill it in.",
    });
    expect(contentFiles.volunteering.schema.safeParse(read.value).success).toBe(true);
  });

  it("keeps a required text left empty as empty, so the schema names it beside its field", () => {
    const read = readContentForm(volunteering, form({ formTitle: "   " }));
    expect(read.value.formTitle).toBe("   ");
    const result = contentFiles.volunteering.schema.safeParse(read.value);
    expect(result.success).toBe(false);
    expect(result.error?.issues.find((i) => i.path.join(".") === "formTitle")?.message).toBe("must not be left empty");
  });

  it("reads lists by their count, booleans by their box, numbers as numbers, optional parts only when there", () => {
    const home = contentFields("home");
    const read = readContentForm(
      home,
      form({
        "imageWheel.images._count": "1",
        "imageWheel.images.0.src": "wheel/village-sunrise",
        "imageWheel.images.0.alt": "Sunrise",
        "imageWheel.delay": "",
        "activeProjects._count": "2",
        "activeProjects.0.slug": "clean-water-borehole",
        "activeProjects.0.title": "Clean water",
        "activeProjects.0.comingSoon": "true",
        "activeProjects.0.testimonial._present": "1",
        "activeProjects.0.testimonial.name": "Neema",
        "activeProjects.0.galleryImages._count": "0",
        "activeProjects.1.slug": "",
        "activeProjects.1.title": "A new one",
        "video.source.kind": "",
      }),
    );
    const wheel = read.value.imageWheel as Record<string, unknown>;
    expect(wheel.images).toEqual([{ src: "wheel/village-sunrise", alt: "Sunrise" }]);
    // An optional number left empty is absent: its default (10 seconds) applies.
    expect(wheel).not.toHaveProperty("delay");
    const [first, second] = read.value.activeProjects as Record<string, unknown>[];
    expect(first).toMatchObject({ slug: "clean-water-borehole", comingSoon: true, galleryImages: [] });
    expect(first!.testimonial).toMatchObject({ name: "Neema", job: "" });
    // A new project has no address yet, no testimonial, and its box unticked.
    expect(second).not.toHaveProperty("slug");
    expect(second).not.toHaveProperty("testimonial");
    expect(second!.comingSoon).toBe(false);
    expect((read.value.video as Record<string, unknown>).source).toBeUndefined();
    expect(read.value.previousProjects).toEqual([]);
  });

  it("says when a required number is left empty", () => {
    const read = readContentForm(
      contentFields("payment"),
      form({ "presetAmounts._count": "1", "presetAmounts.0": " " }),
    );
    expect(read.problems).toEqual({ "presetAmounts.0": "must not be left empty" });
  });

  it("says when a number is not one, and keeps what was typed", () => {
    const read = readContentForm(
      contentFields("payment"),
      form({ "presetAmounts._count": "2", "presetAmounts.0": "5", "presetAmounts.1": "ten" }),
    );
    expect(read.value.presetAmounts).toEqual([5, "ten"]);
    expect(read.problems).toEqual({ "presetAmounts.1": "must be a number" });
  });

  it("reads the chosen kind of video with that kind's fields only", () => {
    const read = readContentForm(
      contentFields("site"),
      form({
        "defaultVideo.kind": "youtube",
        "defaultVideo.title": "Kilele",
        "defaultVideo.youtube": "https://youtu.be/dQw4w9WgXcQ",
        "defaultVideo.captions": "/video/old.vtt",
      }),
    );
    expect(read.value.defaultVideo).toEqual({
      kind: "youtube",
      title: "Kilele",
      youtube: "https://youtu.be/dQw4w9WgXcQ",
    });
  });

  it("never reads more than 200 items of a list, whatever the count says", () => {
    const read = readContentForm(contentFields("payment"), form({ "presetAmounts._count": "1000000000" }));
    expect(read.value.presetAmounts).toHaveLength(200);
  });
});

describe("the list buttons", () => {
  const home = contentFields("home");
  const about = contentFields("about");
  const aboutValue = fileContent("about");
  const names = (value: Record<string, unknown>) => (value.team as { name: string }[]).map((m) => m.name);

  it("reads only the buttons the form has", () => {
    expect(parseFormOp("up team.2")).toEqual({ op: "up", path: "team", index: 2 });
    expect(parseFormOp("move activeProjects.0 previousProjects")).toEqual({
      op: "move",
      path: "activeProjects",
      index: 0,
      to: "previousProjects",
    });
    expect(parseFormOp("add imageWheel.images")).toEqual({ op: "add", path: "imageWheel.images" });
    expect(parseFormOp("drop team")).toBeUndefined();
    expect(parseFormOp("up team")).toBeUndefined();
    expect(parseFormOp("add __proto__.x")).toBeUndefined();
    expect(parseFormOp(null)).toBeUndefined();
  });

  it("moves an item up and down, and says where the focus goes", () => {
    const before = names(aboutValue);
    const up = applyFormOp(about, aboutValue, parseFormOp("up team.2")!);
    expect(names(up.value)).toEqual([before[0], before[2], before[1], ...before.slice(3)]);
    expect(up.focus).toBe("team.1._up");
    const top = applyFormOp(about, aboutValue, parseFormOp("up team.1")!);
    expect(top.focus).toBe("team.0._down");
    const down = applyFormOp(about, aboutValue, parseFormOp("down team.0")!);
    expect(names(down.value).slice(0, 2)).toEqual([before[1], before[0]]);
    // The value the form had is left as it was.
    expect(names(aboutValue)).toEqual(before);
    expect(applyFormOp(about, aboutValue, parseFormOp("up team.0")!).value).toEqual(aboutValue);
  });

  it("adds an empty item and removes one", () => {
    const added = applyFormOp(about, aboutValue, parseFormOp("add trustees")!);
    const trustees = added.value.trustees as unknown[];
    expect(trustees.at(-1)).toEqual({ name: "", position: "", job: "" });
    expect(added.focus).toBe(`trustees.${trustees.length - 1}.name`);
    const removed = applyFormOp(about, aboutValue, parseFormOp("remove team.0")!);
    expect(names(removed.value)).toEqual(names(aboutValue).slice(1));
  });

  it("adds a project with no address, not coming soon, with an empty gallery and no testimonial", () => {
    const added = applyFormOp(home, fileContent("home"), parseFormOp("add activeProjects")!);
    const project = (added.value.activeProjects as Record<string, unknown>[]).at(-1);
    expect(project).toEqual({
      title: "",
      imagePreview: { src: "", alt: "" },
      imageBanner: { src: "", alt: "" },
      info: "",
      col1Text: "",
      col2Text: "",
      comingSoon: false,
      galleryImages: [],
    });
  });

  it("moves a project from the current ones to the previous ones, keeping its address", () => {
    const value = fileContent("home");
    const current = value.activeProjects as { slug: string }[];
    const moved = applyFormOp(home, value, parseFormOp("move activeProjects.1 previousProjects")!);
    expect((moved.value.activeProjects as unknown[]).length).toBe(current.length - 1);
    expect((moved.value.previousProjects as { slug: string }[]).at(-1)!.slug).toBe(current[1]!.slug);
    // Only to the list the schema names.
    expect(applyFormOp(home, value, parseFormOp("move activeProjects.1 imageWheel")!).value).toEqual(value);
  });

  it("adds and removes a project's optional testimonial", () => {
    const value = fileContent("home");
    const included = applyFormOp(home, value, parseFormOp("include previousProjects.0.testimonial")!);
    expect((included.value.previousProjects as Record<string, unknown>[])[0]!.testimonial).toEqual({
      name: "",
      job: "",
      image: { src: "", alt: "" },
      testimonial: "",
    });
    const excluded = applyFormOp(home, value, parseFormOp("exclude activeProjects.0.testimonial")!);
    expect((excluded.value.activeProjects as Record<string, unknown>[])[0]).not.toHaveProperty("testimonial");
  });
});

describe("messages", () => {
  it("names a field by its place in the page", () => {
    const home = contentFields("home");
    const value = fileContent("home");
    expect(fieldLabel(home, value, "activeProjects.2.title")).toBe("Current projects › Project 3 › Title");
    expect(fieldLabel(home, value, "activeProjects.0.imageBanner.alt")).toBe(
      "Current projects › Project 1 › Banner picture › Alt text",
    );
  });
});
