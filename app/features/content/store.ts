import type { ContentName, ContentOf } from "./schema";

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
