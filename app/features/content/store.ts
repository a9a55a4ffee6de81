import { slugOf } from "~/lib/slug";
import { contentFiles, type ContentName, type ContentOf } from "./schema";

// The shape of the content store: where the pages' words and pictures live once staff edit them at
// /admin/pages. The store keeps, per content name (`site`, `home`, `about`, ...), one draft and
// every published version; visitors see the newest published version of each. The server side is
// `store.server.ts`; these types are shared with the editor's pages.

/** One field's problem, by its path in the content ("activeProjects.2.title") and the words to show beside it. */
export interface ContentFieldIssue {
  /** Path segments joined with "." (list positions as numbers): the same key the editor names its inputs by. */
  path: string;
  message: string;
}

/** Who did something to the content: a staff member, or the site itself importing `content/` files. */
export interface ContentAuthor {
  /** The staff member's e-mail, or null when the site imported the version from its files. */
  email: string | null;
}

export interface ContentVersionSummary {
  id: number;
  name: ContentName;
  /** 1 for the first published version of this name, then 2, 3, ... */
  number: number;
  publishedAt: Date;
  publishedBy: ContentAuthor;
  /** How it came to be: imported from the files, published from a draft, or restored from version `restoredFrom`. */
  source: "file" | "editor" | "restore";
  restoredFrom: number | null;
}

export interface ContentVersion<N extends ContentName = ContentName> extends ContentVersionSummary {
  name: N;
  content: ContentOf<N>;
}

export interface ContentDraft {
  name: ContentName;
  /** As staff left it: it may not pass the schema yet, so it is not typed as the content. */
  content: unknown;
  savedAt: Date;
  savedBy: ContentAuthor;
  /** The published version the draft started from, so the editor can say when someone published since. */
  basedOn: number | null;
}

export type ContentSaveResult<T> = { ok: true; value: T } | { ok: false; issues: ContentFieldIssue[] };

/** What publishing a draft needs besides its content: a draft may be saved with mistakes, not published. */
export interface ContentDraftSaved {
  draft: ContentDraft;
  /** The draft's mistakes, if any: it is kept all the same, and can be published once they are put right. */
  issues: ContentFieldIssue[];
}

/**
 * A published version that no longer passes its schema (the schema changed since): the site serves
 * the newest version of that name that does pass, and staff are told.
 */
export interface ContentWarning {
  name: ContentName;
  /** The number of the version that was passed over. */
  number: number;
  /** The number of the version served instead, or null when the content files are served. */
  serving: number | null;
  issues: ContentFieldIssue[];
}

/** The content names whose lists hold projects, and the lists. */
export const projectLists = ["activeProjects", "previousProjects"] as const;

/**
 * A project's address from its title: lower-case letters and digits, words joined by hyphens
 * ("Clean Water for Kilele!" → "clean-water-for-kilele"), never one of `taken` ("-2", "-3", ... added).
 */
export function slugFromTitle(title: string, taken: ReadonlySet<string>): string {
  const base = slugOf(title, "project");
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The home content with a slug given to every project that has none, made from its title and never
 * one in `reserved` (every address a project ever had) or another project's here. Anything that is
 * not a project list is left as it is, for the schema to judge.
 */
export function withProjectSlugs(content: unknown, reserved: ReadonlySet<string> = new Set()): unknown {
  if (!isRecord(content)) return content;
  const taken = new Set(reserved);
  const lists = projectLists.map((key) => (Array.isArray(content[key]) ? (content[key] as unknown[]) : []));
  for (const project of lists.flat()) {
    if (isRecord(project) && typeof project.slug === "string" && project.slug !== "") taken.add(project.slug);
  }
  const copy: Record<string, unknown> = { ...content };
  for (const key of projectLists) {
    if (!Array.isArray(content[key])) continue;
    copy[key] = (content[key] as unknown[]).map((project) => {
      if (!isRecord(project) || (typeof project.slug === "string" && project.slug !== "")) return project;
      const slug = slugFromTitle(typeof project.title === "string" ? project.title : "", taken);
      taken.add(slug);
      return { ...project, slug };
    });
  }
  return copy;
}

/** A path as the editor names its inputs: ["activeProjects", 2, "title"] → "activeProjects.2.title". */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.map(String).join(".");
}

/** Every picture in the content (an object with a string `src` and `alt`), with its path. */
export function picturesIn(
  content: unknown,
  path: (string | number)[] = [],
): { path: string; src: string; alt: string }[] {
  if (Array.isArray(content)) return content.flatMap((item, i) => picturesIn(item, [...path, i]));
  if (!isRecord(content)) return [];
  if (typeof content.src === "string" && typeof content.alt === "string" && Object.keys(content).length === 2) {
    return [{ path: issuePath(path), src: content.src, alt: content.alt }];
  }
  return Object.entries(content).flatMap(([key, value]) => picturesIn(value, [...path, key]));
}

/** The message beside a picture with no description. */
export const altRequiredMessage = "Describe the picture for people who cannot see it.";

/**
 * The content's mistakes: its schema's, each at its dotted path, plus the rules across fields (every
 * picture described; project addresses unique across active and previous projects). Browser-safe.
 * A home project without a slug is not a mistake: publishing gives it one (`withProjectSlugs`).
 */
export function contentIssues(name: ContentName, content: unknown): ContentFieldIssue[] {
  const input = name === "home" ? withProjectSlugs(content) : content;
  const result = contentFiles[name].schema.safeParse(input);
  if (!result.success) {
    return result.error.issues.map((issue) => ({ path: issuePath(issue.path), message: issue.message }));
  }
  const issues: ContentFieldIssue[] = [];
  for (const picture of picturesIn(result.data)) {
    if (picture.alt.trim() === "") issues.push({ path: `${picture.path}.alt`, message: altRequiredMessage });
  }
  if (name === "home" && isRecord(input)) {
    const seen = new Map<string, string>();
    for (const key of projectLists) {
      const list = (result.data as Record<string, unknown>)[key] as { slug: string }[];
      list.forEach((project, i) => {
        const path = `${key}.${i}.slug`;
        if (seen.has(project.slug)) {
          issues.push({
            path,
            message: `Another project has the address /project/${project.slug}: each needs its own.`,
          });
        } else seen.set(project.slug, path);
      });
    }
  }
  return issues;
}

/** The issues as one message per field, the shape the API answers with (`fields`); the first at a path wins. */
export function issueFields(issues: ContentFieldIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) fields[issue.path || "content"] ??= issue.message;
  return fields;
}

/** The public page that shows a content name (the site settings show on every page: the home page). */
export const contentPages: Record<ContentName, string> = {
  site: "/",
  home: "/",
  about: "/about",
  contact: "/contact",
  volunteering: "/volunteering",
  fundraising: "/fundraising",
  payment: "/payment",
};

/**
 * Where staff preview the draft of `name` before publishing it: the page that shows it, with the
 * draft in place of the published content (server/content-preview.ts). `path` previews another
 * public page with it, such as a project's (`/project/<slug>`).
 */
export function previewHref(name: ContentName, path: string = contentPages[name]): string {
  return `${path}?preview=${name}`;
}
