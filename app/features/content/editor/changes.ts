import type { z } from "zod";
import { contentFiles, type ContentName } from "../schema";
import { compareContent } from "./compare";
import { contentFields, isRecord, nodeAt, type FieldNode, type ObjectNode } from "./field-tree";
import { pageSections, sectionOf } from "./sections";

// What Publish would change, shown to staff before they confirm it
// (docs/decisions/075-the-page-editor-by-sections.md): each field that differs between the
// published page and the draft, named by its section and label ("Top of the page › Subtitle"),
// pictures by the name staff know them by.

export interface PublishChange {
  path: string;
  /** "Top of the page › Subtitle", "Projects › Current projects › Project 2 › Banner picture". */
  label: string;
  before: string;
  after: string;
  /** A picture's name rather than a text. */
  picture: boolean;
}

/**
 * A content value as the published page would hold it: each top-level field as the schema gives it
 * out (defaults, trimmed), or as it is where it does not pass yet (a new project has no address
 * until it is published).
 */
function asPublished(name: ContentName, value: unknown): unknown {
  if (!isRecord(value)) return value;
  const shape = (contentFiles[name].schema as z.ZodObject).shape;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => {
      const parsed = shape[key]?.safeParse(field);
      return [key, parsed?.success ? parsed.data : field];
    }),
  );
}

/** Where a field comes in the form, as a list of positions ([4, 8, 1]: the fifth field's ninth item's second field). */
function formOrder(root: ObjectNode, value: unknown, path: string): number[] {
  const order: number[] = [];
  let node: FieldNode | undefined = root;
  let here: unknown = value;
  for (const part of path.split(".")) {
    if (node?.kind === "list") {
      order.push(Number(part));
      node = node.item;
      here = Array.isArray(here) ? here[Number(part)] : undefined;
      continue;
    }
    const current: FieldNode | undefined = node;
    const fields: FieldNode[] =
      current?.kind === "object"
        ? current.fields
        : current?.kind === "choice"
          ? (current.options.find((o) => isRecord(here) && o.value === here[current.discriminator])?.fields ?? [])
          : [];
    const index = fields.findIndex((f) => f.key === part);
    order.push(index === -1 ? (node?.kind === "image" && part === "src" ? -1 : fields.length) : index);
    node = fields[index];
    here = isRecord(here) ? here[part] : undefined;
  }
  return order;
}

const byOrder = (a: number[], b: number[]): number => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
};

/**
 * The fields the draft changes from the published page, in the page's order. `pictureName` names
 * a picture by its src (an upload's file name and date); a picture it does not know keeps its src.
 */
export function publishChanges(
  name: ContentName,
  published: unknown,
  draft: unknown,
  pictureName: (src: string) => string | undefined = () => undefined,
): PublishChange[] {
  const root = contentFields(name);
  const sections = pageSections(root);
  const before = asPublished(name, published);
  const after = asPublished(name, draft);
  const changes = compareContent(root, before, after).map((change) => ({
    change,
    order: formOrder(root, after, change.path),
  }));
  changes.sort((a, b) => byOrder(a.order, b.order));
  return changes.map(({ change }) => {
    const node = nodeAt(root, after, change.path) ?? nodeAt(root, before, change.path);
    const picture = /\.src$/.test(change.path) && node?.kind === "image";
    const section = sections.length > 1 ? sectionOf(sections, change.path) : undefined;
    // "Image wheel › Image wheel › Pictures" reads better as "Image wheel › Pictures".
    const label =
      section && !change.label.startsWith(`${section.title} ›`) && change.label !== section.title
        ? `${section.title} › ${change.label}`
        : change.label;
    const named = (src: string) => (picture && src ? (pictureName(src) ?? src) : src);
    return { path: change.path, label, before: named(change.before), after: named(change.after), picture };
  });
}
