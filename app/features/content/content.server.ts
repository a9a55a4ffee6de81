import fs from "node:fs/promises";
import path from "node:path";
import { contentFiles, type ContentName, type ContentOf, type Project } from "./schema";

export type SiteContent = { [N in ContentName]: ContentOf<N> };

export class ContentError extends Error {
  override name = "ContentError";
}

/** Every content name, in the order of `contentFiles`. */
export const contentNames = Object.keys(contentFiles) as ContentName[];

export function isContentName(name: string): name is ContentName {
  return Object.hasOwn(contentFiles, name);
}

/**
 * The content name behind a page key ("AboutPage" → "about"), if any: call 2 of
 * docs/specification.md, section 7.
 */
export function contentNameForPageKey(pageKey: string): ContentName | undefined {
  return contentNames.find((name) => contentFiles[name].pageKey === pageKey);
}

async function loadOne<N extends ContentName>(dir: string, name: N): Promise<ContentOf<N>> {
  const file = path.join(dir, name, "content.json");
  const label = path.relative(process.cwd(), file) || file;
  let raw: string;
  try {
    raw = await fs.readFile(file, "utf8");
  } catch (error) {
    throw new ContentError(`${label}: cannot be read (${(error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new ContentError(`${label}: is not valid JSON (${(error as Error).message})`);
  }
  const result = contentFiles[name].schema.safeParse(json);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join(".") || "(file)"}: ${issue.message}`);
    throw new ContentError(`${label} is not valid:\n${problems.join("\n")}`);
  }
  return result.data as ContentOf<N>;
}

/** Reads and validates every content file; a broken one is named with the field at fault. */
export async function loadContent(dir: string): Promise<SiteContent> {
  const entries = await Promise.all(contentNames.map(async (name) => [name, await loadOne(dir, name)] as const));
  const content = Object.fromEntries(entries) as SiteContent;
  const slugs = new Set<string>();
  for (const project of allProjects(content)) {
    if (slugs.has(project.slug)) {
      throw new ContentError(
        `${path.join(dir, "home", "content.json")}: two projects share the slug "${project.slug}"`,
      );
    }
    slugs.add(project.slug);
  }
  return content;
}

export function allProjects(content: SiteContent): Project[] {
  return [...content.home.activeProjects, ...content.home.previousProjects];
}

export function findProject(content: SiteContent, slug: string): Project | undefined {
  return allProjects(content).find((project) => project.slug === slug);
}
