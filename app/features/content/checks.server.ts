import type { Queryable } from "~/infra/db/database.server";
import type { PictureLibrary } from "~/infra/images/uploads.server";
import type { ContentName } from "./schema";
import { contentIssues, issuePath, picturesIn, projectLists, withProjectSlugs, type ContentFieldIssue } from "./store";
import { publishedSlugs } from "./versions.server";

// What publishing a page's content checks against the database, beyond its schema: every picture
// it names exists, and no published project's address changes.

/** The checks, and the content as it would be published (new projects given their slugs). */
export async function checkContent(
  db: Queryable,
  library: Pick<PictureLibrary, "missing">,
  name: ContentName,
  input: unknown,
): Promise<{ issues: ContentFieldIssue[]; content: unknown }> {
  const content = name === "home" ? withProjectSlugs(input, await publishedSlugs(db)) : input;
  const issues = contentIssues(name, content);
  if (issues.length > 0) return { issues, content };
  const pictures = picturesIn(content);
  const missing = new Set(
    await library.missing(
      db,
      pictures.map((picture) => picture.src),
    ),
  );
  for (const picture of pictures) {
    if (missing.has(picture.src)) {
      issues.push({
        path: `${picture.path}.src`,
        message: `There is no picture "${picture.src}" on the site: choose one of its pictures or upload one.`,
      });
    }
  }
  if (name === "home") issues.push(...(await slugChanges(db, input)));
  return { issues, content };
}

/**
 * A slug given with a project must be an address some project was published at: a new project
 * comes without one (it is made from its title) and a published one keeps its own.
 */
async function slugChanges(db: Queryable, content: unknown): Promise<ContentFieldIssue[]> {
  const known = await publishedSlugs(db);
  const issues: ContentFieldIssue[] = [];
  const home = content as Record<string, { slug?: unknown }[] | undefined>;
  for (const key of projectLists) {
    (Array.isArray(home[key]) ? home[key] : []).forEach((project, i) => {
      if (typeof project.slug === "string" && project.slug !== "" && !known.has(project.slug)) {
        issues.push({
          path: issuePath([key, i, "slug"]),
          message:
            "A project's address is made from its title when it is first published and never changes: leave it empty for a new project.",
        });
      }
    });
  }
  return issues;
}
