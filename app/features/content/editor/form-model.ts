import { z } from "zod";
import type { EditorHints } from "~/lib/editor-hints";
import type { FieldErrors } from "~/lib/errors";
import { contentFiles, type ContentName } from "../schema";

// The page editor's model of a content schema (docs/decisions/032-the-page-editor.md): zod's JSON
// Schema output, read into a small tree of fields the renderer (../components/content-form.tsx)
// draws and this module reads back from a posted form. Inputs are named by the field's dotted
// path ("activeProjects.2.title"), so the form works as a plain HTML form; the names starting with
// "_" are the form's own: a list's length (`<list>._count`), an optional part being there
// (`<path>._present`), a picture's upload (`<picture>._file`) and a list button (`_op`).

/** What every field has: where it is, its label and help, and whether its parent must have it. */
interface FieldBase {
  /** Its key in its parent object (or "" for a list's item and the root). */
  key: string;
  title: string;
  description?: string;
  required: boolean;
  default?: unknown;
}

export type FieldNode =
  | (FieldBase & { kind: "text"; long: boolean; options?: string[] })
  | (FieldBase & { kind: "number"; integer: boolean })
  | (FieldBase & { kind: "boolean" })
  | (FieldBase & { kind: "slug"; prefix: string })
  | (FieldBase & { kind: "image" })
  | (FieldBase & { kind: "object"; fields: FieldNode[] })
  | (FieldBase & { kind: "list"; item: FieldNode; minItems: number; moveTo?: EditorHints["moveTo"] })
  | (FieldBase & { kind: "choice"; discriminator: string; options: ChoiceOption[] })
  | (FieldBase & { kind: "unknown" });

export interface ChoiceOption {
  value: string;
  title: string;
  fields: FieldNode[];
}

export type ObjectNode = Extract<FieldNode, { kind: "object" }>;
export type ListNode = Extract<FieldNode, { kind: "list" }>;

type JsonSchema = {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  editor?: EditorHints;
};

/** "col1Text" → "Col1 text": the label of a field whose schema gives none. */
export function humanise(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The field tree of a JSON Schema, as zod's `toJSONSchema` writes one (input side). */
export function fieldTree(schema: JsonSchema, key = "", required = true): FieldNode {
  const base = {
    key,
    title: schema.title ?? (key ? humanise(key) : ""),
    ...(schema.description ? { description: schema.description } : {}),
    required,
    ...(schema.default !== undefined ? { default: schema.default } : {}),
  };
  const hints = schema.editor ?? {};
  // A nullable field (anyOf [X, null]) is edited as an optional X.
  const variants = schema.anyOf?.filter((s) => s.type !== "null");
  if (variants && variants.length === 1) {
    return fieldTree({ ...variants[0], ...pick(schema, ["title", "description", "default"]) }, key, false);
  }
  if (schema.oneOf || schema.anyOf) {
    const branches = (schema.oneOf ?? schema.anyOf)!;
    const discriminator = Object.keys(branches[0]?.properties ?? {}).find((name) =>
      branches.every((b) => b.properties?.[name]?.const !== undefined),
    );
    if (!discriminator) return { ...base, kind: "unknown" };
    return {
      ...base,
      kind: "choice",
      discriminator,
      options: branches.map((branch) => {
        const value = String(branch.properties![discriminator]!.const);
        const object = fieldTree(branch, "", true) as ObjectNode;
        return {
          value,
          title: branch.title ?? humanise(value),
          fields: object.fields.filter((f) => f.key !== discriminator),
        };
      }),
    };
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "string":
      if (hints.widget === "slug") return { ...base, kind: "slug", prefix: hints.prefix ?? "" };
      return {
        ...base,
        kind: "text",
        long: hints.widget === "textarea",
        ...(schema.enum ? { options: schema.enum.map(String) } : {}),
      };
    case "number":
    case "integer":
      return { ...base, kind: "number", integer: type === "integer" };
    case "boolean":
      return { ...base, kind: "boolean" };
    case "array":
      return {
        ...base,
        kind: "list",
        item: fieldTree(schema.items ?? {}, "", true),
        minItems: schema.minItems ?? 0,
        ...(hints.moveTo ? { moveTo: hints.moveTo } : {}),
      };
    case "object": {
      if (hints.widget === "image") return { ...base, kind: "image" };
      const needed = new Set(schema.required ?? []);
      return {
        ...base,
        kind: "object",
        fields: Object.entries(schema.properties ?? {}).map(([name, property]) =>
          fieldTree(property, name, needed.has(name)),
        ),
      };
    }
    default:
      return { ...base, kind: "unknown" };
  }
}

function pick(schema: JsonSchema, keys: (keyof JsonSchema)[]): JsonSchema {
  return Object.fromEntries(keys.filter((k) => schema[k] !== undefined).map((k) => [k, schema[k]]));
}

const trees = new Map<ContentName, ObjectNode>();

/** The editor's fields for one content name, from its zod schema (made once). */
export function contentFields(name: ContentName): ObjectNode {
  let tree = trees.get(name);
  if (!tree) {
    const json = z.toJSONSchema(contentFiles[name].schema, { io: "input", unrepresentable: "any" });
    tree = fieldTree(json as JsonSchema) as ObjectNode;
    trees.set(name, tree);
  }
  return tree;
}

/** A path joined with dots, as inputs are named ("team.2.name"). */
export const joinPath = (...parts: (string | number)[]) => parts.filter((p) => p !== "").join(".");

/** The element id of a field's input (or its group), by its path. */
export const fieldId = (path: string) => `field-${path.replace(/\./g, "-") || "page"}`;

// --- Values as the form shows them --------------------------------------------------------------

type Json = unknown;
const isRecord = (value: Json): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The value a new field starts with: its default, or empty. Optional parts start absent. */
export function emptyValue(node: FieldNode): Json {
  if (node.default !== undefined) return structuredClone(node.default);
  switch (node.kind) {
    case "text":
      return "";
    case "number":
    case "slug":
    case "unknown":
      return undefined;
    case "boolean":
      return false;
    case "image":
      return { src: "", alt: "" };
    case "list":
      return [];
    case "object":
      return emptyObject(node.fields);
    case "choice":
      return node.required
        ? { [node.discriminator]: node.options[0]!.value, ...(emptyObject(node.options[0]!.fields) as object) }
        : undefined;
  }
}

function emptyObject(fields: FieldNode[]): Record<string, Json> {
  const value: Record<string, Json> = {};
  for (const field of fields) {
    if (!field.required && field.kind === "object") continue;
    const empty = emptyValue(field);
    if (empty !== undefined) value[field.key] = empty;
  }
  return value;
}

// --- Reading a posted form back ------------------------------------------------------------------

/** The most items a list may have in one post: far beyond any page, small enough to read quickly. */
export const maxListItems = 200;
/** The longest text read from one input. */
const maxTextLength = 20_000;

interface FormLike {
  get(name: string): FormDataEntryValue | null;
}

export interface ReadForm {
  /** The content as posted, typed by the schema where it could be read (and as typed where not). */
  value: Record<string, Json>;
  /** What could not be read at all (a number that is not one), by path; the schema checks the rest. */
  problems: FieldErrors;
}

/** Reads the editor's posted form into the content's JSON value, by the content's field tree. */
export function readContentForm(root: ObjectNode, form: FormLike): ReadForm {
  const problems: FieldErrors = {};
  const text = (path: string): string | undefined => {
    const value = form.get(path);
    return typeof value === "string" ? value.slice(0, maxTextLength) : undefined;
  };

  function read(node: FieldNode, path: string): Json {
    switch (node.kind) {
      case "text": {
        const value = text(path) ?? "";
        // An optional text left empty is absent (its default, if any, applies).
        return value.trim() === "" && !node.required ? undefined : value;
      }
      case "slug": {
        const value = text(path) ?? "";
        return value === "" ? undefined : value;
      }
      case "number": {
        const value = (text(path) ?? "").trim();
        if (value === "") {
          // Optional: its default applies. Required: said here, in words the schema would not find.
          if (node.required && node.default === undefined) problems[path] = "must not be left empty";
          return undefined;
        }
        const number = Number(value);
        if (Number.isFinite(number)) return number;
        problems[path] = "must be a number";
        return value;
      }
      case "boolean": {
        const value = text(path);
        return value !== undefined && value !== "false";
      }
      case "image":
        return { src: (text(joinPath(path, "src")) ?? "").trim(), alt: text(joinPath(path, "alt")) ?? "" };
      case "object":
        if (!node.required && path !== "" && text(joinPath(path, "_present")) === undefined) return undefined;
        return readObject(node.fields, path);
      case "list": {
        const count = Math.min(
          Math.max(Number.parseInt(text(joinPath(path, "_count")) ?? "0", 10) || 0, 0),
          maxListItems,
        );
        return Array.from({ length: count }, (_, i) => read(node.item, joinPath(path, i)));
      }
      case "choice": {
        const chosen = text(joinPath(path, node.discriminator)) ?? "";
        const option = node.options.find((o) => o.value === chosen);
        if (!option) return node.required ? { [node.discriminator]: chosen } : undefined;
        return { [node.discriminator]: option.value, ...readObject(option.fields, path) };
      }
      case "unknown": {
        const value = text(path);
        if (value === undefined || value.trim() === "") return undefined;
        try {
          return JSON.parse(value) as Json;
        } catch {
          problems[path] = "could not be read";
          return value;
        }
      }
    }
  }

  function readObject(fields: FieldNode[], path: string): Record<string, Json> {
    const value: Record<string, Json> = {};
    for (const field of fields) {
      const child = read(field, joinPath(path, field.key));
      if (child !== undefined) value[field.key] = child;
    }
    return value;
  }

  return { value: readObject(root.fields, ""), problems };
}

// --- The list buttons ------------------------------------------------------------------------------

/**
 * A button of the form that changes its shape rather than saving it, posted as `_op`:
 * `add <list>`, `remove <list>.<i>`, `up <list>.<i>`, `down <list>.<i>`, `include <optional part>`,
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

/** The field at a path of the tree, reading list positions and the chosen kinds from the value. */
export function nodeAt(root: ObjectNode, value: Json, path: string): FieldNode | undefined {
  let node: FieldNode = root;
  let here: Json = value;
  for (const part of path === "" ? [] : path.split(".")) {
    if (node.kind === "list") {
      node = node.item;
      here = Array.isArray(here) ? here[Number(part)] : undefined;
    } else if (node.kind === "object") {
      const next: FieldNode | undefined = node.fields.find((f) => f.key === part);
      if (!next) return undefined;
      node = next;
      here = isRecord(here) ? here[part] : undefined;
    } else if (node.kind === "choice") {
      const kind = isRecord(here) ? here[node.discriminator] : undefined;
      const option: ChoiceOption | undefined = node.options.find((o) => o.value === kind);
      const next: FieldNode | undefined = option?.fields.find((f) => f.key === part);
      if (!next) return undefined;
      node = next;
      here = isRecord(here) ? here[part] : undefined;
    } else if (node.kind === "image" && (part === "src" || part === "alt" || part === "_file")) {
      return node;
    } else {
      return undefined;
    }
  }
  return node;
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

// --- Messages --------------------------------------------------------------------------------------

/** A field's full label for the summary of mistakes: "Current projects › Project 3 › Title". */
export function fieldLabel(root: ObjectNode, value: Json, path: string): string {
  const labels: string[] = [];
  let node: FieldNode = root;
  let here: Json = value;
  for (const part of path === "" ? [] : path.split(".")) {
    if (node.kind === "list") {
      labels.push(itemLabel(node, Number(part)));
      node = node.item;
      here = Array.isArray(here) ? here[Number(part)] : undefined;
      continue;
    }
    if (node.kind === "image") {
      if (part === "alt") labels.push("Alt text");
      break;
    }
    const current: FieldNode = node;
    const fields: FieldNode[] =
      current.kind === "object"
        ? current.fields
        : current.kind === "choice"
          ? (current.options.find((o) => isRecord(here) && o.value === here[current.discriminator])?.fields ?? [])
          : [];
    const next: FieldNode | undefined = fields.find((f) => f.key === part);
    if (!next) break;
    node = next;
    labels.push(next.title);
    here = isRecord(here) ? here[part] : undefined;
  }
  return labels.join(" › ") || "The page";
}

/** "Project 3": an item of a list, counted from 1. */
export function itemLabel(list: ListNode, index: number): string {
  return `${list.item.title || "Item"} ${index + 1}`;
}

/** "Title must not be left empty." from a message written to follow its label; other messages as they are. */
export function sentence(label: string, message: string): string {
  const text = /^(must|could|is|has|should|was) /.test(message) ? `${label} ${message}` : message;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** A message in the list at the top of the form, always naming its field: "Header picture › Alt text: Describe …". */
export function summaryLine(label: string, message: string): string {
  const line = sentence(label, message);
  return line === sentence("", message) && !line.startsWith(label) ? `${label}: ${line}` : line;
}
