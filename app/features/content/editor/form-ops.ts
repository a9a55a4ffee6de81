import { isRecord, joinPath, nodeAt, type FieldNode, type Json, type ListNode, type ObjectNode } from "./field-tree";
import { emptyValue, maxListItems } from "./form-values";

// The page editor's list buttons: add, remove and move a list's items, add or remove an optional
// part. Without JavaScript a button posts the form and the server draws it again with the change;
// with it, the form changes in place. Either way the change is `applyFormOp`.

/**
 * A button of the form that changes its shape rather than saving it, posted as the form's
 * `intent` (its first word names the change, as every intent's does): `add <list>`, `remove <list>.<i>`, `up <list>.<i>`, `down <list>.<i>`, `include <optional part>`,
 * `exclude <optional part>`, `move <list>.<i> <other list>` (a project to the previous ones), or
 * `refresh` (draw the fields of a newly chosen kind of video).
 */
export type FormOp =
  | { op: "add" | "include" | "exclude" | "refresh"; path: string }
  | { op: "remove" | "up" | "down"; path: string; index: number }
  | { op: "move"; path: string; index: number; to: string };

export const formOp = {
  add: (list: string) => `add ${list}`,
  remove: (list: string, i: number) => `remove ${joinPath(list, i)}`,
  up: (list: string, i: number) => `up ${joinPath(list, i)}`,
  down: (list: string, i: number) => `down ${joinPath(list, i)}`,
  include: (path: string) => `include ${path}`,
  exclude: (path: string) => `exclude ${path}`,
  move: (list: string, i: number, to: string) => `move ${joinPath(list, i)} ${to}`,
  refresh: () => "refresh ",
};

/** The changes a list button can ask for: the first word of its `intent`. */
export const formOpKinds = Object.keys(formOp) as FormOp["op"][];

const pathPattern = /^[A-Za-z0-9]+(\.[A-Za-z0-9]+)*$/;

/** The button a post says was pressed, or undefined when it names none this form has. */
export function parseFormOp(value: FormDataEntryValue | null): FormOp | undefined {
  if (typeof value !== "string" || value.length > 300) return undefined;
  const [op, target = "", to] = value.split(" ");
  if (op === "refresh") return { op, path: "" };
  if (!pathPattern.test(target)) return undefined;
  if (op === "add" || op === "include" || op === "exclude") return { op, path: target };
  const match = /^(.*)\.(\d{1,3})$/.exec(target);
  if (!match) return undefined;
  const [, path, index] = match;
  if (op === "remove" || op === "up" || op === "down") return { op, path: path!, index: Number(index) };
  if (op === "move" && to && pathPattern.test(to)) return { op, path: path!, index: Number(index), to };
  return undefined;
}

function getAt(value: Json, path: string): Json {
  return path === ""
    ? value
    : path
        .split(".")
        .reduce<Json>(
          (here, part) => (isRecord(here) || Array.isArray(here) ? (here as Record<string, Json>)[part] : undefined),
          value,
        );
}

function setAt(value: Record<string, Json>, path: string, next: Json) {
  const parts = path.split(".");
  const last = parts.pop()!;
  const parent = getAt(value, parts.join("."));
  if (!isRecord(parent) && !Array.isArray(parent)) return;
  if (next === undefined && isRecord(parent)) delete parent[last];
  else (parent as Record<string, Json>)[last] = next;
}

export interface AppliedOp {
  value: Record<string, Json>;
  /** The path of the field or button to put the keyboard's focus on once the form is drawn again. */
  focus?: string;
}

/** Applies a list button to the form's value (a copy); unchanged when the button names nothing here. */
export function applyFormOp(root: ObjectNode, current: Record<string, Json>, op: FormOp): AppliedOp {
  const value = structuredClone(current);
  if (op.op === "refresh") return { value };
  const node = nodeAt(root, value, op.path);
  if (op.op === "include" || op.op === "exclude") {
    if (node?.kind !== "object" || node.required) return { value };
    if (op.op === "exclude") {
      setAt(value, op.path, undefined);
      return { value, focus: `${op.path}._include` };
    }
    setAt(value, op.path, emptyValue({ ...node, required: true }));
    const first = node.fields[0];
    return { value, focus: first ? joinPath(op.path, first.key) : op.path };
  }
  if (node?.kind !== "list") return { value };
  if (op.op === "add") return addItem(node, value, op.path);
  if (!("index" in op)) return { value };
  const list = getAt(value, op.path);
  const items: Json[] = Array.isArray(list) ? list : [];
  if (!Array.isArray(list)) setAt(value, op.path, items);
  const { index } = op;
  if (index < 0 || index >= items.length) return { value };
  if (op.op === "remove") {
    items.splice(index, 1);
    return {
      value,
      focus: items.length === 0 ? `${op.path}._add` : `${joinPath(op.path, Math.min(index, items.length - 1))}._remove`,
    };
  }
  if (op.op === "up" || op.op === "down") {
    const to = op.op === "up" ? index - 1 : index + 1;
    if (to < 0 || to >= items.length) return { value };
    [items[index], items[to]] = [items[to], items[index]];
    // The same button on the item's new place, unless it has reached the end it was going to.
    const edge = op.op === "up" ? to === 0 : to === items.length - 1;
    return { value, focus: `${joinPath(op.path, to)}._${edge ? (op.op === "up" ? "down" : "up") : op.op}` };
  }
  // move: to a sibling list of the same items (a project from the current to the previous ones).
  if (op.op !== "move") return { value };
  if (node.moveTo?.field !== op.to.split(".").pop()) return { value };
  const parentPath = op.path.split(".").slice(0, -1).join(".");
  const toPath = joinPath(parentPath, op.to.split(".").pop()!);
  const target = nodeAt(root, value, toPath);
  if (target?.kind !== "list") return { value };
  const other = getAt(value, toPath);
  const otherItems: Json[] = Array.isArray(other) ? other : [];
  if (!Array.isArray(other)) setAt(value, toPath, otherItems);
  const [moved] = items.splice(index, 1);
  otherItems.push(moved);
  return { value, focus: `${joinPath(toPath, otherItems.length - 1)}._remove` };
}

function addItem(node: ListNode, value: Record<string, Json>, path: string): AppliedOp {
  const list = getAt(value, path);
  const items: Json[] = Array.isArray(list) ? list : [];
  if (!Array.isArray(list)) setAt(value, path, items);
  if (items.length >= maxListItems) return { value };
  items.push(emptyValue(node.item));
  return { value, focus: firstInput(node.item, joinPath(path, items.length - 1)) };
}

/** The path of the first input of a field, to focus when it is added. */
function firstInput(node: FieldNode, path: string): string {
  switch (node.kind) {
    case "object": {
      const first = node.fields.find((f) => f.kind !== "slug");
      return first ? firstInput(first, joinPath(path, first.key)) : path;
    }
    case "image":
      return joinPath(path, "src");
    case "choice":
      return joinPath(path, node.discriminator);
    default:
      return path;
  }
}
