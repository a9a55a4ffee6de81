import type { ReactNode } from "react";
import { Field, FieldGroup, FieldMessage } from "~/components/ui/field";
import { itemLabel } from "../editor/field-labels";
import { fieldId, isRecord, joinPath, type ChoiceOption, type FieldNode, type ListNode } from "../editor/field-tree";
import { formOp } from "../editor/form-ops";
import { asText, useContentForm, useFieldMessage } from "./content-form-context";
import { ImageField } from "./image-field";

// The page editor's fields, one kind of input for each kind of field of the content's tree
// (../editor/field-tree.ts): its label and help from the schema, its message beside it.

export function Fields({ fields, path, value }: { fields: FieldNode[]; path: string; value: unknown }) {
  const record = isRecord(value) ? value : {};
  return (
    <>
      {fields.map((field) => (
        <ContentField key={field.key} node={field} path={joinPath(path, field.key)} value={record[field.key]} />
      ))}
    </>
  );
}

function ContentField({ node, path, value, label }: { node: FieldNode; path: string; value: unknown; label?: string }) {
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
      return <ImageField path={path} value={value} label={title} description={node.description} />;
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
  const m = useFieldMessage(path, label);
  const common = { name: path, defaultValue: asText(value) };
  const props = {
    id: m.id,
    label: (
      <>
        {label}
        {node.required ? null : <span className="field-optional"> (optional)</span>}
      </>
    ),
    hint: node.description,
    error: m.error,
  };
  if (node.options) {
    return (
      <Field {...props} select={common}>
        {node.required ? null : <option value="">None</option>}
        {node.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </Field>
    );
  }
  return node.long ? (
    <Field {...props} textarea={{ ...common, rows: Math.min(12, Math.max(3, Math.ceil(asText(value).length / 70))) }} />
  ) : (
    <Field {...props} input={{ ...common, type: "text" }} />
  );
}

function NumberField({ node, path, value, label }: FieldProps<"number">) {
  const m = useFieldMessage(path, label);
  return (
    <Field
      id={m.id}
      className="field-number"
      label={label}
      hint={node.description}
      error={m.error}
      input={{ name: path, type: "text", inputMode: node.integer ? "numeric" : "decimal", defaultValue: asText(value) }}
    />
  );
}

function BooleanField({ node, path, value, label }: FieldProps<"boolean">) {
  const m = useFieldMessage(path, label);
  return (
    <Field
      id={m.id}
      label={label}
      hint={node.description}
      error={m.error}
      input={{ name: path, type: "checkbox", value: "true", defaultChecked: value === true }}
    />
  );
}

/** A project's address: shown, never edited; a new project gets one from its title when published. */
function SlugField({ node, path, value, label }: FieldProps<"slug">) {
  const m = useFieldMessage(path, label);
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
      <FieldMessage id={`${m.id}-error`} message={m.error} />
    </div>
  );
}

/** A list button: without scripts it posts the form, whose page draws it again with the change. */
function OpButton({ op, id, children }: { op: string; id: string; children: ReactNode }) {
  const { onOp } = useContentForm();
  return (
    <button type="submit" name="intent" value={op} id={fieldId(id)} className="button button-secondary" onClick={onOp}>
      {children}
    </button>
  );
}

function ObjectField({ node, path, value, label }: FieldProps<"object">) {
  const m = useFieldMessage(path, label);
  if (!node.required && !isRecord(value)) {
    return (
      <div className="form-group form-group-absent" id={m.id}>
        <p>
          <strong>{label}</strong>: none.
        </p>
        {node.description ? <p className="field-hint">{node.description}</p> : null}
        <FieldMessage id={`${m.id}-error`} message={m.error} />
        <OpButton op={formOp.include(path)} id={`${path}._include`}>
          Add {lower(label)}
        </OpButton>
      </div>
    );
  }
  return (
    <FieldGroup id={m.id} legend={label} hint={node.description} error={m.error}>
      {node.required ? null : <input type="hidden" name={joinPath(path, "_present")} value="1" />}
      <Fields fields={node.fields} path={path} value={value} />
      {node.required ? null : (
        <OpButton op={formOp.exclude(path)} id={`${path}._exclude`}>
          Remove {lower(label)}
        </OpButton>
      )}
    </FieldGroup>
  );
}

/** What an item of a list is called on its buttons: "Project 3: Clean water borehole". */
function itemName(list: ListNode, index: number, item: unknown): string {
  const base = itemLabel(list, index);
  if (!isRecord(item)) return base;
  const named = ["title", "name", "description"].map((key) => item[key]).find((v) => typeof v === "string" && v);
  return named ? `${base}: ${named as string}` : base;
}

/** Whether a closed item is drawn open: a message about one of its fields, or the keyboard going to one. */
function isOpen(itemPath: string, issues: Record<string, string>, focus: string | undefined): boolean {
  const inside = (path: string) => path === itemPath || path.startsWith(`${itemPath}.`);
  return (
    Object.keys(issues).some(inside) ||
    (focus !== undefined && inside(focus) && !/\._(up|down|remove|move)$/.test(focus))
  );
}

function ListField({ node, path, value, label }: FieldProps<"list">) {
  const form = useContentForm();
  const m = useFieldMessage(path, label);
  const items = Array.isArray(value) ? value : [];
  const moveTo = node.moveTo;
  const movePath = moveTo ? joinPath(path.split(".").slice(0, -1).join("."), moveTo.field) : undefined;
  return (
    <FieldGroup id={m.id} className="form-group list-field" legend={label} hint={node.description} error={m.error}>
      <input type="hidden" name={joinPath(path, "_count")} value={items.length} />
      {items.length === 0 ? <p className="field-hint">None yet.</p> : null}
      {items.length > 0 ? (
        <ol className="list-items">
          {items.map((item, i) => {
            const itemPath = joinPath(path, i);
            const name = itemName(node, i, item);
            return (
              <li key={i} className="list-item">
                {node.item.kind === "object" && node.collapse ? (
                  // Closed under its name unless it is being worked on: a mistake in it, or the keyboard going to it.
                  <details className="list-item-details" open={isOpen(itemPath, form.issues, form.focus) || undefined}>
                    <summary>{name}</summary>
                    <fieldset className="form-group" id={fieldId(itemPath)}>
                      <legend className="visually-hidden">{name}</legend>
                      <Fields fields={node.item.fields} path={itemPath} value={item} />
                    </fieldset>
                  </details>
                ) : node.item.kind === "object" ? (
                  <fieldset className="form-group" id={fieldId(itemPath)}>
                    <legend>{name}</legend>
                    <Fields fields={node.item.fields} path={itemPath} value={item} />
                  </fieldset>
                ) : (
                  <ContentField node={node.item} path={itemPath} value={item} label={itemLabel(node, i)} />
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
    </FieldGroup>
  );
}

/** A choice of kinds (a video of our own or from YouTube), and the chosen kind's fields. */
function ChoiceField({ node, path, value, label }: FieldProps<"choice">) {
  const form = useContentForm();
  const m = useFieldMessage(path, label);
  const record = isRecord(value) ? value : undefined;
  const chosen: ChoiceOption | undefined = node.options.find((o) => o.value === record?.[node.discriminator]);
  const selectPath = joinPath(path, node.discriminator);
  const select = useFieldMessage(selectPath, `${label}: its kind`);
  return (
    <FieldGroup id={m.id} legend={label} hint={node.description} error={m.error}>
      <Field
        id={select.id}
        label="Kind"
        error={select.error}
        control={(props) => (
          <select {...props} name={selectPath} defaultValue={chosen?.value ?? ""} onChange={form.onRefresh}>
            {node.required ? null : <option value="">None</option>}
            {node.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.title}
              </option>
            ))}
          </select>
        )}
      >
        {form.hydrated ? null : (
          <OpButton op={formOp.refresh()} id={`${path}._refresh`}>
            Show the fields of this kind
          </OpButton>
        )}
      </Field>
      {chosen ? <Fields fields={chosen.fields} path={path} value={record} /> : null}
    </FieldGroup>
  );
}

/** A field the editor has no input for: its value as JSON, kept as it is unless changed here. */
function UnknownField({ node, path, value, label }: FieldProps<"unknown">) {
  const m = useFieldMessage(path, label);
  return (
    <Field
      id={m.id}
      label={label}
      hint={node.description ?? "Written as JSON."}
      error={m.error}
      textarea={{ name: path, rows: 4, defaultValue: value === undefined ? "" : JSON.stringify(value, null, 2) }}
    />
  );
}

function lower(label: string) {
  return label.charAt(0).toLowerCase() + label.slice(1);
}
