import fs from "node:fs/promises";
import path from "node:path";
import { desc, eq } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import type { DatabaseHandle } from "~/infra/db/database.server";
import type { PictureLibrary } from "~/infra/images/uploads.server";
import { logLine } from "~/infra/log.server";
import type { Clock } from "~/lib/clock";
import { AppError } from "~/lib/errors";
import { contentDrafts, contentVersions } from "~db/schema";
import { checkContent } from "./checks.server";
import { importContentFile, readContentFile } from "./content-files.server";
import { ContentError, contentNames, type SiteContent } from "./content.server";
import { contentFiles, type ContentName, type ContentOf } from "./schema";
import {
  contentIssues,
  picturesIn,
  withProjectSlugs,
  type ContentDraft,
  type ContentDraftSaved,
  type ContentFieldIssue,
  type ContentSaveResult,
  type ContentVersion,
  type ContentVersionSummary,
  type ContentWarning,
} from "./store";
import {
  contentChannel,
  findVersion,
  insertVersion,
  lockName,
  newestVersionId,
  publishedSlugs,
  summaryOf,
  versionHistory,
  versionOf,
  type ContentStaff,
  type VersionRow,
} from "./versions.server";

// The pages' content, kept in the database (docs/decisions/031-content-in-the-database.md): every
// published version of each name, and one draft per name. Visitors see the newest published
// version that passes the schema, held in memory; a publish in any process reaches every process
// through the database's NOTIFY. The files in content/ are imported when the database has no
// version of a name, and again whenever a file changes (a developer shipping content).

export interface ContentStoreOptions {
  clock: Clock;
  /** content/: the starting content, one folder per name. */
  contentDir: string;
  /** Checks that every picture named exists (content/images sources and uploads). */
  pictures: Pick<PictureLibrary, "missing">;
  /**
   * Development: a content file edited while the site runs is imported on the next request. In
   * production the files are looked at only at start-up.
   */
  watchFiles: boolean;
  /** How often a process asks the database whether it missed a publish (a dropped LISTEN connection). */
  recheckMs?: number;
}

interface Served {
  version: ContentVersionSummary | null;
  content: unknown;
}

function parsed<N extends ContentName>(name: N, content: unknown): ContentOf<N> | undefined {
  const input = name === "home" ? withProjectSlugs(content) : content;
  if (contentIssues(name, input).length > 0) return undefined;
  return contentFiles[name].schema.parse(input) as ContentOf<N>;
}

export class ContentStore {
  private readonly served = new Map<ContentName, Served>();
  private site: SiteContent | undefined;
  private readonly problems = new Map<ContentName, ContentWarning>();
  private stopListening: (() => Promise<void>) | undefined;
  private recheck: ReturnType<typeof setInterval> | undefined;
  private recheckDue = false;
  private newestId = 0;
  private readonly fileTimes = new Map<ContentName, number>();
  private loading: Promise<void> = Promise.resolve();
  /**
   * Counts every change to what visitors see (a reload queued, content served): a page rendered
   * while this was n shows content at least as new as change n, so a page cache keeps it only
   * while this is still n (server/page-cache.ts).
   */
  changes = 0;
  /** The version of each name this process is publishing now: its own notice is no news. */
  private readonly publishing = new Map<ContentName, number>();

  /**
   * True when `published()` would look for changes first: the periodic check for a publish missed
   * by a dropped LISTEN connection is due, or (development) content files are watched.
   */
  get mayBeStale(): boolean {
    return this.recheckDue || this.options.watchFiles;
  }

  constructor(
    private readonly database: Pick<DatabaseHandle, "db" | "listen">,
    private readonly options: ContentStoreOptions,
  ) {}

  private get db() {
    return this.database.db;
  }

  /**
   * Imports the content files the database lacks (or that changed since they were imported), then
   * loads what visitors see. Throws a ContentError naming the file and field when a name has
   * neither a stored version nor a valid file: there is nothing to show.
   */
  async start({ importFiles = true }: { importFiles?: boolean } = {}) {
    // A notice says which version of which name was published ("about:7"). One this process
    // already serves (its own publish, served at once) changes nothing, so no page is made again.
    this.stopListening = await this.database.listen(contentChannel, (notice) => {
      const [name, number] = notice.split(":");
      if (!name || !Object.hasOwn(contentFiles, name)) return;
      const known = Math.max(
        this.served.get(name as ContentName)?.version?.number ?? 0,
        this.publishing.get(name as ContentName) ?? 0,
      );
      if (number !== undefined && known >= Number(number)) return;
      this.queueReload(name as ContentName);
    });
    // `importFiles: false` (the export) only reads: a name with nothing stored is served from its file.
    if (importFiles)
      for (const name of contentNames) await importContentFile(this.db, this.options, name, { required: true });
    for (const name of contentNames) await this.reload(name);
    await this.logMissingPictures();
    this.newestId = await newestVersionId(this.db);
    const recheckMs = this.options.recheckMs ?? 30_000;
    this.recheck = setInterval(() => (this.recheckDue = true), recheckMs);
    this.recheck.unref?.();
  }

  /**
   * Pictures are checked when content is published; one named by what is served and gone since (a
   * source removed from content/images in a deploy) is logged at start-up, for a developer to put back.
   */
  private async logMissingPictures() {
    for (const name of contentNames) {
      const pictures = picturesIn(this.served.get(name)!.content);
      const missing = await this.options.pictures.missing(
        this.db,
        pictures.map((picture) => picture.src),
      );
      if (missing.length > 0) {
        logLine("error", { message: `The published "${name}" content names pictures the site does not have`, missing });
      }
    }
  }

  async stop() {
    clearInterval(this.recheck);
    await this.stopListening?.();
  }

  /** What visitors see: the newest published version of each name that passes its schema. */
  async published(): Promise<SiteContent> {
    if (this.options.watchFiles) await this.importChangedFiles();
    if (this.recheckDue) {
      this.recheckDue = false;
      const newest = await newestVersionId(this.db);
      if (newest !== this.newestId) {
        this.newestId = newest;
        for (const name of contentNames) this.queueReload(name);
      }
    }
    await this.loading;
    return this.site!;
  }

  /**
   * An entity tag for the published content of `name` (its version's id, or the file it was read
   * from): the JSON contract answers 304 to a client that already has it.
   */
  publishedTag(name: ContentName): string {
    const version = this.served.get(name)?.version;
    return version ? `"content-${version.id}"` : `"content-file-${name}"`;
  }

  /** Stored versions passed over because they no longer pass the schema: for staff to see. */
  warnings(): ContentWarning[] {
    return [...this.problems.values()];
  }

  /** The checks publishing makes that need no database: the schema and the rules across fields. */
  validate(name: ContentName, content: unknown): ContentFieldIssue[] {
    return contentIssues(name, content);
  }

  /**
   * Every check publishing makes: `validate`, every picture named exists, and no published project's
   * address is changed.
   */
  async check(name: ContentName, content: unknown): Promise<ContentFieldIssue[]> {
    return (await checkContent(this.db, this.options.pictures, name, content)).issues;
  }

  async draft(name: ContentName): Promise<ContentDraft | undefined> {
    const [row] = await this.db.select().from(contentDrafts).where(eq(contentDrafts.name, name));
    if (!row) return undefined;
    return {
      name,
      content: row.content,
      savedAt: row.savedAt,
      savedBy: { email: row.savedByEmail },
      basedOn: row.basedOn,
    };
  }

  /**
   * Keeps staff's work as it is, mistakes and all (they can come back to it); the mistakes are
   * answered so the editor can show them. The draft is based on the version published now.
   */
  async saveDraft(name: ContentName, content: unknown, staff: ContentStaff): Promise<ContentDraftSaved> {
    if (typeof content !== "object" || content === null || Array.isArray(content)) {
      throw new AppError("invalid", "The draft was not saved.", {
        fields: { content: "must be the page's content: an object of its fields" },
      });
    }
    const now = this.options.clock.now();
    const basedOn = this.served.get(name)?.version?.number ?? null;
    const values = { content, savedAt: now, savedById: staff.id, savedByEmail: staff.email, basedOn };
    await this.db
      .insert(contentDrafts)
      .values({ name, ...values })
      .onConflictDoUpdate({ target: contentDrafts.name, set: values });
    const draft: ContentDraft = { name, content, savedAt: now, savedBy: { email: staff.email }, basedOn };
    return { draft, issues: await this.check(name, content) };
  }

  /** Throws the draft away; true when there was one. */
  async discardDraft(name: ContentName, staff: ContentStaff): Promise<boolean> {
    const now = this.options.clock.now();
    return this.db.transaction(async (tx) => {
      const gone = await tx.delete(contentDrafts).where(eq(contentDrafts.name, name)).returning();
      if (gone.length === 0) return false;
      await recordAudit(tx, {
        staff,
        action: "content.draft-discarded",
        subject: `content:${name}`,
        summary: `The draft of "${name}"`,
        at: now,
      });
      return true;
    });
  }

  /**
   * Checks the content and publishes it as the name's next version: clears the draft, audits, and
   * tells every process. A project without a slug gets one made from its title. Nothing is stored
   * when there is a mistake.
   */
  async publish<N extends ContentName>(
    name: N,
    content: unknown,
    staff: ContentStaff,
  ): Promise<ContentSaveResult<ContentVersion<N>>> {
    return this.store(name, content, { staff, source: "editor", restoredFrom: null });
  }

  /** Publishes a copy of an earlier version as the newest, with source "restore". */
  async restore<N extends ContentName>(
    name: N,
    id: number,
    staff: ContentStaff,
  ): Promise<ContentSaveResult<ContentVersion<N>> | undefined> {
    const earlier = await this.version(name, id);
    if (!earlier) return undefined;
    return this.store(name, earlier.content, { staff, source: "restore", restoredFrom: earlier.number });
  }

  private async store<N extends ContentName>(
    name: N,
    input: unknown,
    about: { staff: ContentStaff; source: "editor" | "restore"; restoredFrom: number | null },
  ): Promise<ContentSaveResult<ContentVersion<N>>> {
    const now = this.options.clock.now();
    let inserted: number | undefined;
    const result = await this.db
      .transaction(async (tx) => {
        await lockName(tx, name);
        const { issues, content } = await checkContent(tx, this.options.pictures, name, input);
        if (issues.length > 0) return { ok: false as const, issues };
        const row = await insertVersion(tx, name, contentFiles[name].schema.parse(content), {
          at: now,
          staff: about.staff,
          source: about.source,
          restoredFrom: about.restoredFrom,
          fileHash: null,
        });
        // Its notice may be delivered as the transaction commits, before it is served below.
        inserted = row.number;
        this.publishing.set(name, row.number);
        await tx.delete(contentDrafts).where(eq(contentDrafts.name, name));
        await recordAudit(tx, {
          staff: about.staff,
          action: about.source === "restore" ? "content.restored" : "content.published",
          subject: `content:${name}`,
          summary:
            about.source === "restore"
              ? `Version ${row.number} of "${name}", a copy of version ${about.restoredFrom}`
              : `Version ${row.number} of "${name}"`,
          at: now,
        });
        return { ok: true as const, value: versionOf<N>(row) };
      })
      .finally(() => {
        // Rolled back or committed, this process no longer waits for it.
        if (inserted !== undefined && this.publishing.get(name) === inserted) this.publishing.delete(name);
      });
    if (result.ok) this.serve(name, result.value, result.value.content);
    return result;
  }

  /** Every published version of a name, newest first. */
  history(name: ContentName): Promise<ContentVersionSummary[]> {
    return versionHistory(this.db, name);
  }

  /**
   * One published version with its content as stored: an old version may no longer pass today's
   * schema (`validate` says where).
   */
  version<N extends ContentName>(name: N, id: number): Promise<ContentVersion<N> | undefined> {
    return findVersion(this.db, name, id);
  }

  /**
   * The site's content with the drafts of `names` in place of what is published, for staff's
   * preview; a draft with mistakes is left out (named in `invalid`) and the published content shown.
   * A new project is previewed at the address publishing would give it.
   */
  async preview(names: ContentName[]): Promise<{ content: SiteContent; shown: ContentName[]; invalid: ContentName[] }> {
    const content = { ...(await this.published()) } as Record<ContentName, unknown>;
    const shown: ContentName[] = [];
    const invalid: ContentName[] = [];
    for (const name of names) {
      const draft = await this.draft(name);
      if (!draft) continue;
      const input = name === "home" ? withProjectSlugs(draft.content, await publishedSlugs(this.db)) : draft.content;
      const value = parsed(name, input);
      if (value) {
        content[name] = value;
        shown.push(name);
      } else invalid.push(name);
    }
    return { content: content as SiteContent, shown, invalid };
  }

  /** What `npm run content -- export` writes: the published content of each name, as visitors see it. */
  async exportable(): Promise<{ name: ContentName; version: number | null; content: unknown }[]> {
    await this.published();
    return contentNames.map((name) => {
      const served = this.served.get(name)!;
      return { name, version: served.version?.number ?? null, content: served.content };
    });
  }

  private queueReload(name: ContentName) {
    this.changes++;
    this.loading = this.loading
      .then(() => this.reload(name))
      .catch((error: unknown) => {
        logLine("error", { message: `Reloading the "${name}" content failed`, error: String(error) });
      });
  }

  /**
   * Loads the newest version of `name` that passes the schema. A newer one that does not (the
   * schema changed under it) is logged and reported to staff, never served.
   */
  private async reload(name: ContentName) {
    const rows = await this.db
      .select()
      .from(contentVersions)
      .where(eq(contentVersions.name, name))
      .orderBy(desc(contentVersions.number));
    this.problems.delete(name);
    for (const row of rows) {
      const value = parsed(name, row.content);
      if (value) {
        this.serve(name, summaryOf(row), value);
        if (row.number !== rows[0]!.number) this.passedOver(name, rows[0]!, row.number);
        return;
      }
    }
    // No stored version passes: the files are the last resort.
    const file = await readContentFile(this.options.contentDir, name);
    if (rows[0]) this.passedOver(name, rows[0], null);
    if (!file.ok) {
      throw new ContentError(
        `No published version of "${name}" passes its schema, nor does ${file.label}:\n${file.issues
          .map((issue) => `  ${issue.path || "(file)"}: ${issue.message}`)
          .join("\n")}`,
      );
    }
    this.serve(name, null, file.content);
  }

  private passedOver(name: ContentName, newest: VersionRow, serving: number | null) {
    const warning: ContentWarning = {
      name,
      number: newest.number,
      serving,
      issues: contentIssues(name, newest.content),
    };
    this.problems.set(name, warning);
    logLine("error", {
      message: `Version ${newest.number} of the "${name}" content no longer passes its schema; serving ${
        serving === null ? "the content file" : `version ${serving}`
      }`,
      issues: warning.issues,
    });
  }

  private serve(name: ContentName, version: ContentVersionSummary | null, content: unknown) {
    // A reload that read the versions before a publish committed (one queued by an earlier
    // publish's notice) may finish after that publish is served: it never puts an older one back.
    // Nor does one that read what is already served count as a change (a notice heard late).
    const current = this.served.get(name)?.version;
    if (current && version && version.number <= current.number) return;
    this.served.set(name, { version, content });
    this.changes++;
    if (version && version.id > this.newestId) this.newestId = version.id;
    if (contentNames.every((each) => this.served.has(each))) {
      this.site = Object.fromEntries(contentNames.map((each) => [each, this.served.get(each)!.content])) as SiteContent;
    }
  }

  /** Development: files changed since they were last looked at are imported (and so served). */
  private async importChangedFiles() {
    for (const name of contentNames) {
      const file = path.join(this.options.contentDir, name, "content.json");
      const mtime = await fs.stat(file).then(
        (stat) => stat.mtimeMs,
        () => 0,
      );
      if (this.fileTimes.get(name) === mtime) continue;
      const first = !this.fileTimes.has(name);
      this.fileTimes.set(name, mtime);
      if (first) continue;
      await importContentFile(this.db, this.options, name, { required: false });
      this.queueReload(name);
    }
  }
}
