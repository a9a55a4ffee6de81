import type { FieldErrors } from "~/lib/errors";
import { joinPath, type FieldNode, type Json, type ObjectNode } from "./field-tree";

// The values of the page editor's form: what a new field starts with, and a posted form read back
// into the content's JSON by its field tree (./field-tree.ts).

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
