import {
  createContext,
  useContext,
  useEffect,
  useRef,
  useState,
  type ChangeEvent,
  type MouseEvent,
  type ReactNode,
} from "react";
import { Form } from "react-router";
import { Picture } from "~/components/ui/picture";
import { useEarlyValue } from "~/components/ui/use-early-input";
import type { FieldErrors } from "~/lib/errors";
import { imageUrl, notAPictureMessage, uploadSizeProblem, uploadTypes } from "~/lib/images";
import {
  applyFormOp,
  fieldId,
  fieldLabel,
  formOp,
  itemLabel,
  joinPath,
  nodeAt,
  parseFormOp,
  readContentForm,
  sentence,
  summaryLine,
  type ChoiceOption,
  type FieldNode,
  type ListNode,
  type ObjectNode,
} from "../editor/form-model";

// The staff page editor's form, drawn from the content's field tree (../editor/form-model.ts):
// every field of the schema, labelled and explained by the schema, its message beside it. It is a
// plain HTML form: without JavaScript the list buttons post it and the server draws it again with
// the change; with JavaScript they change it in place, and a chosen picture is uploaded at once.

/** A picture the site already has, offered for any picture field. */
export interface PictureChoice {
  src: string;
  /** How staff know it: its name under content/images, or what was uploaded and when. */
  label: string;
}

const accept = uploadTypes.join(",");
const noIssues: FieldErrors = {};
const picturesListId = "site-pictures";

interface FormContext {
  root: ObjectNode;
  value: Record<string, unknown>;
  issues: FieldErrors;
  hydrated: boolean;
  uploadUrl: string;
  onOp(event: MouseEvent<HTMLButtonElement>): void;
  onRefresh(): void;
  browse(path: string, pick: (src: string) => void): void;
}

const Context = createContext<FormContext | null>(null);
const useForm = () => useContext(Context)!;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const asText = (value: unknown) =>
  typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);

export function ContentForm({
  fields,
  value: initialValue,
  issues = noIssues,
  pictures,
  focus,
  summary = "Nothing was saved: please correct these fields.",
  uploadUrl = "/api/admin/images",
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
  /** The form's own buttons (Save draft, Publish, ...). */
  children?: ReactNode;
}) {
  const [state, setState] = useState(() => ({
    value: isRecord(initialValue) ? initialValue : {},
    issues,
    generation: 0,
    focus,
  }));
  const [hydrated, setHydrated] = useState(false);
  const [picker, setPicker] = useState<{ path: string; pick(src: string): void } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);

  useEffect(() => setHydrated(true), []);
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

  const context: FormContext = {
    root: fields,
    value: state.value,
    issues: state.issues,
    hydrated,
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
    <Context.Provider value={context}>
      <Form
        ref={formRef}
        method="post"
        encType="multipart/form-data"
        className="form content-form"
        noValidate
        key={state.generation}
      >
        {issueList.length > 0 ? (
          <div ref={summaryRef} className="form-summary" role="alert" tabIndex={-1}>
            <p>{summary}</p>
            <ul>
              {issueList.map(([path, message]) => (
                <li key={path}>
                  <a href={`#${fieldId(issueTarget(fields, state.value, path))}`}>
                    {summaryLine(fieldLabel(fields, state.value, path), message)}
                  </a>
                </li>
              ))}
            </ul>
          </div>
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
    </Context.Provider>
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

function Fields({ fields, path, value }: { fields: FieldNode[]; path: string; value: unknown }) {
  const record = isRecord(value) ? value : {};
  return (
    <>
      {fields.map((field) => (
        <Field key={field.key} node={field} path={joinPath(path, field.key)} value={record[field.key]} />
      ))}
    </>
  );
}

/** A field's message beside it, and the ids its input is described by. */
function useMessage(path: string, label: string, hint?: string) {
  const { issues } = useForm();
  const id = fieldId(path);
  const message = issues[path];
  const describedBy = [hint ? `${id}-hint` : "", message ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return {
    id,
    invalid: message ? true : undefined,
    describedBy,
    hintText: hint ? (
      <p id={`${id}-hint`} className="field-hint">
        {hint}
      </p>
    ) : null,
    error: message ? (
      <p id={`${id}-error`} className="field-error">
        {sentence(label, message)}
      </p>
    ) : null,
  };
}

function Field({ node, path, value, label }: { node: FieldNode; path: string; value: unknown; label?: string }) {
  const title = label ?? node.title;
  switch (node.kind) {
    case "text":
      return <TextField node={node} path={path} value={value} label={title} />;
    case "number":
      return <NumberField node={node} path={path} value={value} label={title} />;
    case "boolean":
      return <BooleanField node={node} path={path} value={value} label={title} />;
    case "slug":
      return <SlugField node={node} path={path} value={value} label={title} />;
    case "image":
      return <ImageField node={node} path={path} value={value} label={title} />;
    case "object":
      return <ObjectField node={node} path={path} value={value} label={title} />;
    case "list":
      return <ListField node={node} path={path} value={value} label={title} />;
    case "choice":
      return <ChoiceField node={node} path={path} value={value} label={title} />;
    case "unknown":
      return <UnknownField node={node} path={path} value={value} label={title} />;
  }
}

type FieldProps<K extends FieldNode["kind"]> = {
  node: Extract<FieldNode, { kind: K }>;
  path: string;
  value: unknown;
  label: string;
};

function TextField({ node, path, value, label }: FieldProps<"text">) {
  const m = useMessage(path, label, node.description);
  const common = {
    id: m.id,
    name: path,
    defaultValue: asText(value),
    "aria-invalid": m.invalid,
    "aria-describedby": m.describedBy,
  };
  return (
    <div className="field">
      <label htmlFor={m.id}>
        {label}
        {node.required ? null : <span className="field-optional"> (optional)</span>}
      </label>
      {m.hintText}
      {node.options ? (
        <select {...common}>
          {node.required ? null : <option value="">None</option>}
          {node.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      ) : node.long ? (
        <textarea {...common} rows={Math.min(12, Math.max(3, Math.ceil(asText(value).length / 70)))} />
      ) : (
        <input {...common} type="text" />
      )}
      {m.error}
    </div>
  );
}

function NumberField({ node, path, value, label }: FieldProps<"number">) {
  const m = useMessage(path, label, node.description);
  return (
    <div className="field field-number">
      <label htmlFor={m.id}>{label}</label>
      {m.hintText}
      <input
        id={m.id}
        name={path}
        type="text"
        inputMode={node.integer ? "numeric" : "decimal"}
        defaultValue={asText(value)}
        aria-invalid={m.invalid}
        aria-describedby={m.describedBy}
      />
      {m.error}
    </div>
  );
}

function BooleanField({ node, path, value, label }: FieldProps<"boolean">) {
  const m = useMessage(path, label, node.description);
  return (
    <div className="field">
      <div className="field-checkbox">
        <input
          id={m.id}
          name={path}
          type="checkbox"
          value="true"
          defaultChecked={value === true}
          aria-invalid={m.invalid}
          aria-describedby={m.describedBy}
        />
        <label htmlFor={m.id}>{label}</label>
      </div>
      {m.hintText}
      {m.error}
    </div>
  );
}

/** A project's address: shown, never edited; a new project gets one from its title when published. */
function SlugField({ node, path, value, label }: FieldProps<"slug">) {
  const m = useMessage(path, label);
  const slug = asText(value);
  return (
    <div className="field" id={m.id}>
      <p className="field-slug">
        <strong>{label}:</strong>{" "}
        {slug ? (
          <>
            <a href={`${node.prefix}${slug}`}>
              {node.prefix}
              {slug}
            </a>{" "}
            <span className="field-hint">(it never changes, even if the title does)</span>
          </>
        ) : (
          <span className="field-hint">made from the title when this is first published.</span>
        )}
      </p>
      {slug ? <input type="hidden" name={path} value={slug} /> : null}
      {m.error}
    </div>
  );
}

/** A picture: the current one, one chosen from the site's pictures or uploaded, and its alt text. */
function ImageField({ node, path, value, label }: FieldProps<"image">) {
  const form = useForm();
  const image = isRecord(value) ? value : {};
  const [src, setSrc] = useState(asText(image.src));
  const srcField = useRef<HTMLInputElement>(null);
  useEarlyValue(srcField, src, setSrc);
  const [upload, setUpload] = useState<{ state: "idle" | "sending" | "done" } | { state: "failed"; message: string }>({
    state: "idle",
  });
  const srcPath = joinPath(path, "src");
  const filePath = joinPath(path, "_file");
  const altPath = joinPath(path, "alt");
  const group = useMessage(path, label, node.description);
  const srcMessage = useMessage(srcPath, `${label}: the picture`, "Type part of its name to see the site's pictures.");
  const serverFileMessage = form.issues[filePath];
  const fileMessage =
    upload.state === "failed" ? upload.message : upload.state === "idle" ? serverFileMessage : undefined;
  const fileId = fieldId(filePath);
  const altMessage = useMessage(
    altPath,
    `${label}: its alt text`,
    "What the picture shows, for people who cannot see it.",
  );

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    // Without JavaScript the file goes with the form; with it, the picture is stored at once.
    if (!form.hydrated) return;
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    const problem =
      uploadSizeProblem(file.size) ??
      (file.type && !(uploadTypes as readonly string[]).includes(file.type) ? notAPictureMessage : undefined);
    if (problem) {
      setUpload({ state: "failed", message: problem });
      return;
    }
    setUpload({ state: "sending" });
    try {
      const response = await fetch(`${form.uploadUrl}?name=${encodeURIComponent(file.name)}`, {
        method: "POST",
        headers: { "Content-Type": file.type || "application/octet-stream" },
        body: file,
      });
      const answer = (await response.json().catch(() => ({}))) as {
        image?: string;
        error?: string;
        fields?: { file?: string };
      };
      if (response.status === 201 && answer.image) {
        setSrc(answer.image);
        input.value = "";
        setUpload({ state: "done" });
      } else {
        setUpload({ state: "failed", message: answer.fields?.file ?? answer.error ?? "could not be uploaded" });
      }
    } catch {
      setUpload({ state: "failed", message: "could not be uploaded: check the connection and choose it again" });
    }
  }

  return (
    <fieldset className="form-group picture-field" id={group.id} aria-describedby={group.describedBy}>
      <legend>{label}</legend>
      {group.hintText}
      {group.error}
      <div className="current-picture">
        {src ? (
          <Picture image={{ src, alt: "" }} sizes="10rem" width={160} height={100} />
        ) : (
          <p className="field-hint">No picture chosen yet.</p>
        )}
      </div>
      <div className="field">
        <label htmlFor={srcMessage.id}>Picture on the site</label>
        {srcMessage.hintText}
        <input
          ref={srcField}
          id={srcMessage.id}
          name={srcPath}
          type="text"
          list={picturesListId}
          value={src}
          onChange={(event) => setSrc(event.currentTarget.value)}
          aria-invalid={srcMessage.invalid}
          aria-describedby={srcMessage.describedBy}
        />
        {srcMessage.error}
        {form.hydrated ? (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => form.browse(path, (chosen) => setSrc(chosen))}
          >
            Choose from the site's pictures <span className="visually-hidden">for {label}</span>
          </button>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={fileId}>Or upload a new picture</label>
        <p id={`${fileId}-hint`} className="field-hint">
          A JPEG, PNG, WebP or AVIF of up to 15 MB. It is resized for the site, and its location and camera details are
          removed.
        </p>
        <input
          id={fileId}
          name={filePath}
          type="file"
          accept={accept}
          onChange={onFile}
          aria-invalid={fileMessage ? true : undefined}
          aria-describedby={[`${fileId}-hint`, fileMessage ? `${fileId}-error` : ""].filter(Boolean).join(" ")}
        />
        <p className="form-progress" role="status">
          {upload.state === "sending"
            ? "Uploading the picture…"
            : upload.state === "done"
              ? "Uploaded: it is this field's picture now."
              : ""}
        </p>
        {fileMessage ? (
          <p id={`${fileId}-error`} className="field-error">
            {sentence("The picture", fileMessage)}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={altMessage.id}>Alt text</label>
        {altMessage.hintText}
        <input
          id={altMessage.id}
          name={altPath}
          type="text"
          defaultValue={asText(image.alt)}
          aria-invalid={altMessage.invalid}
          aria-describedby={altMessage.describedBy}
        />
        {altMessage.error}
      </div>
    </fieldset>
  );
}

function OpButton({ op, id, children }: { op: string; id: string; children: ReactNode }) {
  const { onOp } = useForm();
  return (
    <button type="submit" name="_op" value={op} id={fieldId(id)} className="button button-secondary" onClick={onOp}>
      {children}
    </button>
  );
}

function ObjectField({ node, path, value, label }: FieldProps<"object">) {
  const m = useMessage(path, label, node.description);
  if (!node.required && !isRecord(value)) {
    return (
      <div className="form-group form-group-absent" id={m.id}>
        <p>
          <strong>{label}</strong>: none.
        </p>
        {m.hintText}
        {m.error}
        <OpButton op={formOp.include(path)} id={`${path}._include`}>
          Add {lower(label)}
        </OpButton>
      </div>
    );
  }
  return (
    <fieldset className="form-group" id={m.id} aria-describedby={m.describedBy}>
      <legend>{label}</legend>
      {m.hintText}
      {m.error}
      {node.required ? null : <input type="hidden" name={joinPath(path, "_present")} value="1" />}
      <Fields fields={node.fields} path={path} value={value} />
      {node.required ? null : (
        <OpButton op={formOp.exclude(path)} id={`${path}._exclude`}>
          Remove {lower(label)}
        </OpButton>
      )}
    </fieldset>
  );
}

/** What an item of a list is called on its buttons: "Project 3: Clean water borehole". */
function itemName(list: ListNode, index: number, item: unknown): string {
  const base = itemLabel(list, index);
  if (!isRecord(item)) return base;
  const named = ["title", "name", "description"].map((key) => item[key]).find((v) => typeof v === "string" && v);
  return named ? `${base}: ${named as string}` : base;
}

function ListField({ node, path, value, label }: FieldProps<"list">) {
  const m = useMessage(path, label, node.description);
  const items = Array.isArray(value) ? value : [];
  const moveTo = node.moveTo;
  const movePath = moveTo ? joinPath(path.split(".").slice(0, -1).join("."), moveTo.field) : undefined;
  const simple = node.item.kind !== "object" && node.item.kind !== "image" && node.item.kind !== "choice";
  return (
    <fieldset className="form-group list-field" id={m.id} aria-describedby={m.describedBy}>
      <legend>{label}</legend>
      {m.hintText}
      {m.error}
      <input type="hidden" name={joinPath(path, "_count")} value={items.length} />
      {items.length === 0 ? <p className="field-hint">None yet.</p> : null}
      {items.length > 0 ? (
        <ol className="list-items">
          {items.map((item, i) => {
            const itemPath = joinPath(path, i);
            const name = itemName(node, i, item);
            return (
              <li key={i} className="list-item">
                {simple ? (
                  <Field node={node.item} path={itemPath} value={item} label={itemLabel(node, i)} />
                ) : node.item.kind === "object" ? (
                  <fieldset className="form-group" id={fieldId(itemPath)}>
                    <legend>{name}</legend>
                    <Fields fields={node.item.fields} path={itemPath} value={item} />
                  </fieldset>
                ) : (
                  <Field node={node.item} path={itemPath} value={item} label={itemLabel(node, i)} />
                )}
                <div className="list-item-actions">
                  {i > 0 ? (
                    <OpButton op={formOp.up(path, i)} id={`${itemPath}._up`}>
                      Move up <span className="visually-hidden">{name}</span>
                    </OpButton>
                  ) : null}
                  {i < items.length - 1 ? (
                    <OpButton op={formOp.down(path, i)} id={`${itemPath}._down`}>
                      Move down <span className="visually-hidden">{name}</span>
                    </OpButton>
                  ) : null}
                  {moveTo && movePath ? (
                    <OpButton op={formOp.move(path, i, moveTo.field)} id={`${itemPath}._move`}>
                      {moveTo.label}
                      <span className="visually-hidden">: {name}</span>
                    </OpButton>
                  ) : null}
                  <OpButton op={formOp.remove(path, i)} id={`${itemPath}._remove`}>
                    Remove <span className="visually-hidden">{name}</span>
                  </OpButton>
                </div>
              </li>
            );
          })}
        </ol>
      ) : null}
      <OpButton op={formOp.add(path)} id={`${path}._add`}>
        Add {lower(node.item.title || "an item")} <span className="visually-hidden">to {label}</span>
      </OpButton>
    </fieldset>
  );
}

/** A choice of kinds (a video of our own or from YouTube), and the chosen kind's fields. */
function ChoiceField({ node, path, value, label }: FieldProps<"choice">) {
  const form = useForm();
  const m = useMessage(path, label, node.description);
  const record = isRecord(value) ? value : undefined;
  const chosen: ChoiceOption | undefined = node.options.find((o) => o.value === record?.[node.discriminator]);
  const selectPath = joinPath(path, node.discriminator);
  const select = useMessage(selectPath, `${label}: its kind`);
  return (
    <fieldset className="form-group" id={m.id} aria-describedby={m.describedBy}>
      <legend>{label}</legend>
      {m.hintText}
      {m.error}
      <div className="field">
        <label htmlFor={select.id}>Kind</label>
        <select
          id={select.id}
          name={selectPath}
          defaultValue={chosen?.value ?? ""}
          onChange={form.onRefresh}
          aria-invalid={select.invalid}
          aria-describedby={select.describedBy}
        >
          {node.required ? null : <option value="">None</option>}
          {node.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.title}
            </option>
          ))}
        </select>
        {select.error}
        {form.hydrated ? null : (
          <OpButton op={formOp.refresh()} id={`${path}._refresh`}>
            Show the fields of this kind
          </OpButton>
        )}
      </div>
      {chosen ? <Fields fields={chosen.fields} path={path} value={record} /> : null}
    </fieldset>
  );
}

/** A field the editor has no input for: its value as JSON, kept as it is unless changed here. */
function UnknownField({ node, path, value, label }: FieldProps<"unknown">) {
  const m = useMessage(path, label, node.description ?? "Written as JSON.");
  return (
    <div className="field">
      <label htmlFor={m.id}>{label}</label>
      {m.hintText}
      <textarea
        id={m.id}
        name={path}
        rows={4}
        defaultValue={value === undefined ? "" : JSON.stringify(value, null, 2)}
        aria-invalid={m.invalid}
        aria-describedby={m.describedBy}
      />
      {m.error}
    </div>
  );
}

function lower(label: string) {
  return label.charAt(0).toLowerCase() + label.slice(1);
}

/** The site's pictures as thumbnails to choose from (with JavaScript; the text field's list works without). */
function PicturePicker({
  pictures,
  onPick,
  onClose,
}: {
  pictures: PictureChoice[];
  onPick(src: string): void;
  onClose(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal?.();
    const back = returnFocus.current;
    return () => {
      if (back?.isConnected) back.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="picture-picker"
      aria-labelledby="picture-picker-title"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id="picture-picker-title">Choose a picture</h2>
      <ul className="picture-picker-grid">
        {pictures.map((picture) => (
          <li key={picture.src}>
            <button type="button" className="picture-picker-choice" onClick={() => onPick(picture.src)}>
              <img src={imageUrl(picture.src, 480, "webp")} alt="" width={120} height={75} loading="lazy" />
              <span>{picture.label}</span>
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="button button-secondary" onClick={onClose}>
        Close
      </button>
    </dialog>
  );
}
