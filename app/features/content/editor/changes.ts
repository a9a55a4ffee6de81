import { contentFiles, type ContentName } from "../schema";
import { compareContent } from "./compare";
import { contentFields, nodeAt } from "./field-tree";
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

/** A content value as the published page would hold it: the schema's output (defaults, trimmed), or as it is. */
function asPublished(name: ContentName, value: unknown): unknown {
  const parsed = contentFiles[name].schema.safeParse(value);
  return parsed.success ? parsed.data : value;
}

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
  return compareContent(root, before, after).map((change) => {
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
