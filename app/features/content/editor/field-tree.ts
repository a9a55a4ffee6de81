import { z } from "zod";
import type { EditorHints } from "~/lib/editor-hints";
import { contentFiles, type ContentName } from "../schema";

// The page editor's model of a content schema (docs/decisions/032-the-page-editor.md): zod's JSON
// Schema output, read into a small tree of fields the form (../components/content-form.tsx) draws,
// reads back (./form-values.ts) and changes with its list buttons (./form-ops.ts). Inputs are named
// by the field's dotted path ("activeProjects.2.title"), so the form works as a plain HTML form;
// the names starting with "_" are the form's own: a list's length (`<list>._count`), an optional
// part being there (`<path>._present`) and a picture's upload (`<picture>._file`). A list button
// is a button of the form's `intent`, like its Save draft and Publish.

/** What every field has: where it is, its label and help, and whether its parent must have it. */
interface FieldBase {
  /** Its key in its parent object (or "" for a list's item and the root). */
  key: string;
  title: string;
  description?: string;
  required: boolean;
  default?: unknown;
  /** On a top-level field: the editor's section it starts (./sections.ts). */
  section?: string;
}

export type FieldNode =
  | (FieldBase & { kind: "text"; long: boolean; options?: string[] })
  | (FieldBase & { kind: "number"; integer: boolean })
  | (FieldBase & { kind: "boolean" })
  | (FieldBase & { kind: "slug"; prefix: string })
  | (FieldBase & { kind: "image" })
  | (FieldBase & { kind: "object"; fields: FieldNode[] })
  | (FieldBase & {
      kind: "list";
      item: FieldNode;
      minItems: number;
      moveTo?: EditorHints["moveTo"];
      collapse?: boolean;
    })
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
  const hints = schema.editor ?? {};
  const base = {
    key,
    title: schema.title ?? (key ? humanise(key) : ""),
    ...(schema.description ? { description: schema.description } : {}),
    required,
    ...(schema.default !== undefined ? { default: schema.default } : {}),
    ...(hints.section ? { section: hints.section } : {}),
  };
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
        ...(hints.collapse ? { collapse: true } : {}),
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

export type Json = unknown;

export const isRecord = (value: Json): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

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
