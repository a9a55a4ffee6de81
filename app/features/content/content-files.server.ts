import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { and, desc, eq, isNotNull } from "drizzle-orm";
import type { Queryable } from "~/infra/db/database.server";
import { logLine } from "~/infra/log.server";
import type { Clock } from "~/lib/clock";
import { contentVersions } from "~db/schema";
import { ContentError } from "./content.server";
import { contentFiles, type ContentName } from "./schema";
import { contentIssues, type ContentFieldIssue } from "./store";
import { insertVersion, lockName } from "./versions.server";

// The files in content/: the starting content, imported as a version when the database has none
// of a name, and again whenever a file changes (a developer shipping content, decision 031).

function fileHash(raw: string) {
  return crypto.createHash("sha256").update(raw).digest("hex");
}

/** A version's content as JSON the database stores and the export writes: the schema's output. */
function sameContent(a: unknown, b: unknown) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** content/<name>/content.json, read and checked against its schema; where it cannot be, why. */
export async function readContentFile(
  contentDir: string,
  name: ContentName,
): Promise<
  | { ok: true; label: string; content: unknown; hash: string }
  | { ok: false; label: string; issues: ContentFieldIssue[]; hash?: string }
> {
  const file = path.join(contentDir, name, "content.json");
  const label = path.relative(process.cwd(), file) || file;
  let raw: string;
  try {
    raw = await fs.readFile(file, "utf8");
  } catch (error) {
    return { ok: false, label, issues: [{ path: "", message: `cannot be read (${(error as Error).message})` }] };
  }
  const hash = fileHash(raw);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return {
      ok: false,
      label,
      hash,
      issues: [{ path: "", message: `is not valid JSON (${(error as Error).message})` }],
    };
  }
  const issues = contentIssues(name, json);
  if (issues.length > 0) return { ok: false, label, hash, issues };
  return { ok: true, label, hash, content: contentFiles[name].schema.parse(json) };
}

/**
 * Imports content/<name>/content.json as a new version (source "file") when the database has
 * none of that name, or when the file changed since it was last imported and says something
 * other than what is published. A file with mistakes is refused with its field named: at
 * start-up with nothing stored (`required`) that stops the site; otherwise it is logged and the
 * stored content stays.
 */
export async function importContentFile(
  db: Queryable,
  { contentDir, clock }: { contentDir: string; clock: Clock },
  name: ContentName,
  { required }: { required: boolean },
) {
  const file = await readContentFile(contentDir, name);
  const stored = await db.transaction(async (tx) => {
    await lockName(tx, name);
    const [newest] = await tx
      .select()
      .from(contentVersions)
      .where(eq(contentVersions.name, name))
      .orderBy(desc(contentVersions.number))
      .limit(1);
    const [lastImport] = await tx
      .select({ fileHash: contentVersions.fileHash })
      .from(contentVersions)
      .where(and(eq(contentVersions.name, name), isNotNull(contentVersions.fileHash)))
      .orderBy(desc(contentVersions.number))
      .limit(1);
    if (newest && file.hash !== undefined && lastImport?.fileHash === file.hash) return false;
    if (!file.ok) {
      if (newest || !required) return file;
      throw new ContentError(
        `${file.label} is not valid:\n${file.issues.map((issue) => `  ${issue.path || "(file)"}: ${issue.message}`).join("\n")}`,
      );
    }
    // An export committed back unchanged is already what is published: noted, not published again.
    const same = newest !== undefined && sameContent(newest.content, file.content);
    if (same) {
      await tx.update(contentVersions).set({ fileHash: file.hash }).where(eq(contentVersions.id, newest.id));
      return false;
    }
    await insertVersion(tx, name, file.content, {
      at: clock.now(),
      staff: null,
      source: "file",
      restoredFrom: null,
      fileHash: file.hash,
    });
    return true;
  });
  if (stored === true) logLine("info", { message: `Imported the "${name}" content from its file` });
  else if (stored && !stored.ok) {
    logLine("error", {
      message: `${stored.label} was not imported: it is not valid`,
      issues: stored.issues,
    });
  }
}
