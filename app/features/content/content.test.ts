import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { contentFiles, type ContentName, type ContentOf, type HomeContent, type Project } from "./schema";

// Checks the charity's real content files (content/<name>/content.json), not fixtures:
// each must satisfy its schema, name only pictures that exist, and give the home page
// the projects its behaviour depends on (docs/specification.md, section 4).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const contentDir = path.join(root, "content");
const imagesDir = path.join(contentDir, "images");
const sourceExtensions = [".svg", ".png", ".jpg", ".jpeg"];
const names = Object.keys(contentFiles) as ContentName[];

function readJson(name: ContentName): unknown {
  return JSON.parse(fs.readFileSync(path.join(contentDir, name, "content.json"), "utf8"));
}

function parsed<N extends ContentName>(name: N): ContentOf<N> {
  return contentFiles[name].schema.parse(readJson(name)) as ContentOf<N>;
}

/** Every { src, alt } image anywhere in a content file, with where it was found. */
function imagesIn(value: unknown, at = ""): { at: string; src: string; alt: string }[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => imagesIn(item, `${at}[${i}]`));
  if (value === null || typeof value !== "object") return [];
  const record = value as Record<string, unknown>;
  const own =
    typeof record.src === "string" && "alt" in record ? [{ at, src: record.src, alt: String(record.alt) }] : [];
  return [...own, ...Object.entries(record).flatMap(([key, child]) => imagesIn(child, at ? `${at}.${key}` : key))];
}

describe("content files", () => {
  it.each(names)("content/%s/content.json satisfies its schema", (name) => {
    const result = contentFiles[name].schema.safeParse(readJson(name));
    const problems = result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(problems).toEqual([]);
  });

  it.each(names)("every picture named in content/%s/content.json has a source under content/images", (name) => {
    const images = imagesIn(readJson(name));
    const missing = images
      .filter(({ src }) => !sourceExtensions.some((ext) => fs.existsSync(path.join(imagesDir, `${src}${ext}`))))
      .map(({ at, src }) => `${at}: ${src}`);
    expect(missing).toEqual([]);
  });

  it("describes every picture in its alt text", () => {
    const unlabelled = names.flatMap((name) =>
      imagesIn(readJson(name))
        .filter(({ alt }) => alt.trim().length < 10)
        .map(({ at, src }) => `${name}: ${at} (${src})`),
    );
    expect(unlabelled).toEqual([]);
  });

  it("links to a privacy policy that is in public/", () => {
    const site = parsed("site");
    const file = path.join(root, "public", site.privacyPolicyUrl);
    expect(fs.existsSync(file), `${site.privacyPolicyUrl} should exist in public/`).toBe(true);
    expect(fs.readFileSync(file).subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });
});

describe("home page projects", () => {
  const home: HomeContent = parsed("home");
  const all: Project[] = [...home.activeProjects, ...home.previousProjects];

  it("has enough active projects for Show more to be used, and three previous ones", () => {
    expect(home.activeProjects.length).toBeGreaterThanOrEqual(6);
    expect(home.previousProjects).toHaveLength(3);
  });

  it("has exactly one project coming soon, and it is an active one", () => {
    expect(all.filter((p) => p.comingSoon).map((p) => p.slug)).toHaveLength(1);
    expect(home.activeProjects.filter((p) => p.comingSoon)).toHaveLength(1);
  });

  it("has a project with both a testimonial and a gallery", () => {
    expect(all.some((p) => p.testimonial !== undefined && p.galleryImages.length > 0)).toBe(true);
  });

  it("gives every project its own slug", () => {
    const slugs = all.map((p) => p.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
  });

  it("has pictures in the image wheel", () => {
    expect(home.imageWheel.images.length).toBeGreaterThanOrEqual(1);
    expect(home.imageWheel.delay).toBeGreaterThan(0);
  });
});
