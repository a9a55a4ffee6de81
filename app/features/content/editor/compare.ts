import { fieldLabel } from "./field-labels";
import type { ObjectNode } from "./field-tree";

// Comparing two versions of a page's content, field by field, for the history page: what staff
// would see change if they restored the earlier one.

export interface ContentChange {
  path: string;
  /** The field's place in the page: "Meet the team › Team member 2 › Name". */
  label: string;
  /** As the earlier version has it ("" when it had no such field). */
  before: string;
  /** As it is now. */
  after: string;
}

const shown = (value: unknown) =>
  value === undefined || value === null ? "" : typeof value === "boolean" ? (value ? "Yes" : "No") : String(value);

/** Every leaf of a JSON value by its dotted path ("team.1.image.src"). */
function leaves(value: unknown, path: string, into: Map<string, string>) {
  if (Array.isArray(value)) {
    value.forEach((item, i) => leaves(item, path ? `${path}.${i}` : String(i), into));
  } else if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) leaves(child, path ? `${path}.${key}` : key, into);
  } else {
    into.set(path, shown(value));
  }
  return into;
}

/** The fields that differ between an earlier version and the current one, in the order the page has them. */
export function compareContent(root: ObjectNode, before: unknown, after: unknown): ContentChange[] {
  const old = leaves(before, "", new Map());
  const now = leaves(after, "", new Map());
  const paths = [...now.keys(), ...[...old.keys()].filter((path) => !now.has(path))];
  return paths
    .filter((path) => (old.get(path) ?? "") !== (now.get(path) ?? ""))
    .map((path) => ({
      path,
      label: fieldLabel(root, now.has(path) ? after : before, path),
      before: old.get(path) ?? "",
      after: now.get(path) ?? "",
    }));
}
