import { and, desc, eq, max, sql } from "drizzle-orm";
import type { Queryable } from "~/infra/db/database.server";
import { contentVersions } from "~db/schema";
import type { ContentName, ContentOf } from "./schema";
import { projectLists, type ContentVersion, type ContentVersionSummary } from "./store";

// The published versions of the pages' content as the database keeps them: numbered per name,
// written one at a time per name, and announced to every process once committed (decision 031).

/** The channel every process announces a publish on; the payload is the content name. */
export const contentChannel = "kilele_content_published";

/** Who is changing the content: the signed-in member of staff. */
export interface ContentStaff {
  id: string;
  email: string;
}

export type VersionRow = typeof contentVersions.$inferSelect;

export function summaryOf(row: VersionRow): ContentVersionSummary {
  return {
    id: row.id,
    name: row.name as ContentName,
    number: row.number,
    publishedAt: row.publishedAt,
    publishedBy: { email: row.publishedByEmail },
    source: row.source as ContentVersionSummary["source"],
    restoredFrom: row.restoredFrom,
  };
}

export function versionOf<N extends ContentName>(row: VersionRow): ContentVersion<N> {
  return { ...summaryOf(row), name: row.name as N, content: row.content as ContentOf<N> };
}

/** Every published version of a name, newest first. */
export async function versionHistory(db: Queryable, name: ContentName): Promise<ContentVersionSummary[]> {
  const rows = await db
    .select()
    .from(contentVersions)
    .where(eq(contentVersions.name, name))
    .orderBy(desc(contentVersions.number));
  return rows.map(summaryOf);
}

/** One published version of a name by its id, as stored; undefined for an id that cannot be one. */
export async function findVersion<N extends ContentName>(
  db: Queryable,
  name: N,
  id: number,
): Promise<ContentVersion<N> | undefined> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2 ** 31 - 1) return undefined;
  const [row] = await db
    .select()
    .from(contentVersions)
    .where(and(eq(contentVersions.name, name), eq(contentVersions.id, id)));
  return row ? versionOf<N>(row) : undefined;
}

/** The id of the newest version of any name (0 with none): a process that missed a notice sees it changed. */
export async function newestVersionId(db: Queryable): Promise<number> {
  const [row] = await db.select({ newest: max(contentVersions.id) }).from(contentVersions);
  return row?.newest ?? 0;
}

/** Every address a project was ever published at. */
export async function publishedSlugs(db: Queryable): Promise<Set<string>> {
  const rows = await db
    .select({ content: contentVersions.content })
    .from(contentVersions)
    .where(eq(contentVersions.name, "home"));
  const slugs = new Set<string>();
  for (const row of rows) {
    for (const key of projectLists) {
      const list = (row.content as Record<string, unknown> | null)?.[key];
      if (!Array.isArray(list)) continue;
      for (const project of list) {
        const slug = (project as { slug?: unknown } | null)?.slug;
        if (typeof slug === "string") slugs.add(slug);
      }
    }
  }
  return slugs;
}

/** One writer of a name's versions at a time, across processes (until the transaction ends). */
export async function lockName(tx: Queryable, name: ContentName) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`kilele_content:${name}`}))`);
}

/** Stores the next version of `name` and announces it to every process once committed. */
export async function insertVersion(
  tx: Queryable,
  name: ContentName,
  content: unknown,
  about: {
    at: Date;
    staff: ContentStaff | null;
    source: ContentVersionSummary["source"];
    restoredFrom: number | null;
    fileHash: string | null;
  },
): Promise<VersionRow> {
  const [last] = await tx
    .select({ number: max(contentVersions.number) })
    .from(contentVersions)
    .where(eq(contentVersions.name, name));
  const [row] = await tx
    .insert(contentVersions)
    .values({
      name,
      number: (last?.number ?? 0) + 1,
      content,
      publishedAt: about.at,
      publishedById: about.staff?.id ?? null,
      publishedByEmail: about.staff?.email ?? null,
      source: about.source,
      restoredFrom: about.restoredFrom,
      fileHash: about.fileHash,
    })
    .returning();
  await tx.execute(sql`select pg_notify(${contentChannel}, ${`${name}:${row!.number}`})`);
  return row!;
}
