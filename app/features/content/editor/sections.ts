import type { FieldNode, Json, ObjectNode } from "./field-tree";
import { isRecord } from "./field-tree";

// The page editor's sections (docs/decisions/075-the-page-editor-by-sections.md): a long page
// (home, about) is edited one part at a time, each on its own page (/admin/pages/home?section=projects).
// A top-level field whose schema hints `editor.section` starts one; the fields after it belong to
// it until the next. A page that starts none is one section, edited whole, as before.

export interface PageSection {
  /** In the address: "top-of-the-page", "projects". */
  id: string;
  title: string;
  /** The top-level fields it holds, in the page's order. */
  keys: string[];
}

/** "Top of the page" → "top-of-the-page". */
const sectionId = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "") || "section";

/** A page's sections in order; every top-level field is in exactly one. */
export function pageSections(root: ObjectNode): PageSection[] {
  const sections: PageSection[] = [];
  for (const field of root.fields) {
    const current = sections.at(-1);
    if (field.section || !current) {
      const title = field.section ?? "The page";
      sections.push({ id: sectionId(title), title, keys: [field.key] });
    } else {
      current.keys.push(field.key);
    }
  }
  return sections;
}

/** The section asked for by the address, or the first (a name it does not have gives the first). */
export function findSection(sections: PageSection[], id: string | null | undefined): PageSection {
  return sections.find((section) => section.id === id) ?? sections[0]!;
}

/** The section a field's dotted path ("activeProjects.2.title") is in. */
export function sectionOf(sections: PageSection[], path: string): PageSection | undefined {
  const key = path.split(".")[0];
  return sections.find((section) => section.keys.includes(key!));
}

/** The part of the page's field tree a section draws and reads back: the same paths as the whole. */
export function sectionFields(root: ObjectNode, section: PageSection): ObjectNode {
  const keys = new Set(section.keys);
  return { ...root, fields: root.fields.filter((field: FieldNode) => keys.has(field.key)) };
}

/**
 * A section's fields as posted, put into the page's content: the other sections stay as they were
 * (the draft's, or the published page's), so saving one section never drops another's changes. A
 * field of the section absent from the post (an optional part taken away) is absent here too.
 */
export function withSection(base: Json, section: PageSection, posted: Record<string, Json>): Record<string, Json> {
  const value: Record<string, Json> = isRecord(base) ? structuredClone(base) : {};
  for (const key of section.keys) {
    if (key in posted && posted[key] !== undefined) value[key] = structuredClone(posted[key]);
    else delete value[key];
  }
  return value;
}
