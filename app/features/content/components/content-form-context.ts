import { createContext, useContext, type MouseEvent } from "react";
import type { FieldErrors } from "~/lib/errors";
import { sentence } from "../editor/field-labels";
import { fieldId, type ObjectNode } from "../editor/field-tree";

// What every field of the page editor's form reads from the form it is in
// (./content-form.tsx): the messages by path, whether scripts run, and the form's actions.

/** A picture the site already has, offered for any picture field. */
export interface PictureChoice {
  src: string;
  /** How staff know it: its name under content/images, or what was uploaded and when. */
  label: string;
}

export interface ContentFormContext {
  root: ObjectNode;
  value: Record<string, unknown>;
  /** Messages by field path ("activeProjects.2.title"). */
  issues: FieldErrors;
  hydrated: boolean;
  /** The field or button the keyboard goes to once the form is drawn (after a list button). */
  focus?: string;
  uploadUrl: string;
  /** A list button pressed: with scripts, the form changes in place. */
  onOp(event: MouseEvent<HTMLButtonElement>): void;
  /** The form drawn again as it is now (a newly chosen kind of video). */
  onRefresh(): void;
  /** Opens the site's pictures to choose one for the picture at `path`. */
  browse(path: string, pick: (src: string) => void): void;
}

export const ContentFormContext = createContext<ContentFormContext | null>(null);

export const useContentForm = () => useContext(ContentFormContext)!;

/** The id of the site's pictures' list, which every picture field's text input offers. */
export const picturesListId = "site-pictures";

/** A value as the text of an input. */
export const asText = (value: unknown) =>
  typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);

/** A field's id and its message from the server, as a sentence naming it. */
export function useFieldMessage(path: string, label: string) {
  const { issues } = useContentForm();
  const message = issues[path];
  return { id: fieldId(path), error: message ? sentence(label, message) : undefined };
}
