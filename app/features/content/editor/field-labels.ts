import { isRecord, type FieldNode, type Json, type ListNode, type ObjectNode } from "./field-tree";

// How the page editor names a field in its messages: "Current projects › Project 3 › Title".

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
