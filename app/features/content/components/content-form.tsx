import { useEffect, useRef, useState, type ReactNode } from "react";
import { Form } from "react-router";
import { FormNotice } from "~/components/ui/form-notice";
import type { FieldErrors } from "~/lib/errors";
import { fieldLabel, summaryLine } from "../editor/field-labels";
import { fieldId, isRecord, joinPath, nodeAt, type ObjectNode } from "../editor/field-tree";
import { applyFormOp, formOp, parseFormOp } from "../editor/form-ops";
import { readContentForm } from "../editor/form-values";
import { Fields } from "./content-fields";
import { ContentFormContext, picturesListId, type PictureChoice } from "./content-form-context";
import { PicturePicker } from "./image-field";
import { useHydrated } from "~/components/ui/use-hydrated";

// The staff page editor's form, drawn from the content's field tree (../editor/field-tree.ts):
// every field of the schema, labelled and explained by the schema, its message beside it
// (./content-fields.tsx). It is a plain HTML form: without JavaScript the list buttons post it and
// the server draws it again with the change; with JavaScript they change it in place, and a chosen
// picture is uploaded at once.

const noIssues: FieldErrors = {};

export function ContentForm({
  fields,
  value: initialValue,
  issues = noIssues,
  pictures,
  focus,
  summary = "Nothing was saved: please correct these fields.",
  uploadUrl = "/api/admin/images",
  issueLabel,
  issueHref,
  children,
}: {
  fields: ObjectNode;
  value: unknown;
  /** Messages by field path ("activeProjects.2.title"), from the server's check. */
  issues?: FieldErrors;
  pictures: PictureChoice[];
  /** A field or button to focus once drawn (after the server applied a list button). */
  focus?: string;
  /** What the list of mistakes at the top says first. */
  summary?: string;
  uploadUrl?: string;
  /** How the list of mistakes names a field, when the form draws part of a page (a section of it). */
  issueLabel?: (path: string) => string;
  /** Where the list of mistakes links a field this form does not draw (another section's page). */
  issueHref?: (path: string) => string | undefined;
  /** The form's own buttons (Save draft, Publish, ...). */
  children?: ReactNode;
}) {
  const [state, setState] = useState(() => ({
    value: isRecord(initialValue) ? initialValue : {},
    issues,
    generation: 0,
    focus,
  }));
  const hydrated = useHydrated();
  const [picker, setPicker] = useState<{ path: string; pick(src: string): void } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const summaryRef = useRef<HTMLDivElement & HTMLParagraphElement>(null);

  // A new answer from the server (its values and messages) draws the form afresh.
  const lastAnswer = useRef({ initialValue, issues });
  useEffect(() => {
    if (lastAnswer.current.initialValue === initialValue && lastAnswer.current.issues === issues) return;
    lastAnswer.current = { initialValue, issues };
    setState((s) => ({
      value: isRecord(initialValue) ? initialValue : {},
      issues,
      generation: s.generation + 1,
      focus,
    }));
  }, [initialValue, issues, focus]);
  useEffect(() => {
    if (state.focus) document.getElementById(fieldId(state.focus))?.focus();
    else if (state.generation > 0 && Object.keys(state.issues).length > 0) summaryRef.current?.focus();
  }, [state]);

  /** Reads what is on the form now, applies the change, and draws it again. */
  function change(op: string) {
    const form = formRef.current;
    const parsed = parseFormOp(op);
    if (!form || !parsed) return;
    const current = readContentForm(fields, new FormData(form)).value;
    const applied = applyFormOp(fields, current, parsed);
    setState((s) => ({ value: applied.value, issues: {}, generation: s.generation + 1, focus: applied.focus }));
  }

  const context: ContentFormContext = {
    root: fields,
    value: state.value,
    issues: state.issues,
    hydrated,
    focus: state.focus,
    uploadUrl,
    onOp(event) {
      event.preventDefault();
      change(event.currentTarget.value);
    },
    onRefresh() {
      change(formOp.refresh());
    },
    browse(path, pick) {
      setPicker({ path, pick });
    },
  };

  const issueList = Object.entries(state.issues);
  return (
    <ContentFormContext.Provider value={context}>
      <Form
        ref={formRef}
        method="post"
        encType="multipart/form-data"
        className="form content-form"
        noValidate
        key={state.generation}
      >
        {issueList.length > 0 ? (
          <FormNotice
            ok={false}
            focusRef={summaryRef}
            details={
              <ul>
                {issueList.map(([path, message]) => (
                  <li key={path}>
                    <a href={issueHref?.(path) ?? `#${fieldId(issueTarget(fields, state.value, path))}`}>
                      {summaryLine(issueLabel?.(path) ?? fieldLabel(fields, state.value, path), message)}
                    </a>
                  </li>
                ))}
              </ul>
            }
          >
            {summary}
          </FormNotice>
        ) : null}
        <Fields fields={fields.fields} path="" value={state.value} />
        <datalist id={picturesListId}>
          {pictures.map((picture) => (
            <option key={picture.src} value={picture.src}>
              {picture.label}
            </option>
          ))}
        </datalist>
        {children}
      </Form>
      {picker ? (
        <PicturePicker
          pictures={pictures}
          onClose={() => setPicker(null)}
          onPick={(src) => {
            picker.pick(src);
            setPicker(null);
          }}
        />
      ) : null}
    </ContentFormContext.Provider>
  );
}

/** Where a message's link goes: its field, or the nearest part of the form that is drawn. */
function issueTarget(root: ObjectNode, value: unknown, path: string): string {
  const parts = path.split(".");
  while (parts.length > 0) {
    const candidate = parts.join(".");
    const node = nodeAt(root, value, candidate);
    if (node && node.kind !== "slug") {
      if (node.kind === "image" && !/\.(src|alt)$/.test(candidate)) return joinPath(candidate, "src");
      return candidate;
    }
    parts.pop();
  }
  return "";
}
