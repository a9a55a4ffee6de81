import { useEffect, useRef, useState, type ChangeEvent } from "react";
import { Field, FieldGroup } from "~/components/ui/field";
import { Picture } from "~/components/ui/picture";
import { imageUrl, notAPictureMessage, uploadSizeProblem, uploadTypes } from "~/lib/images";
import { sentence } from "../editor/field-labels";
import { fieldId, isRecord, joinPath } from "../editor/field-tree";
import { asText, picturesListId, useContentForm, useFieldMessage, type PictureChoice } from "./content-form-context";

// A picture of the page editor's form: the current one, one chosen from the site's pictures or
// uploaded (with scripts at once, without them with the form), and its alt text.

const accept = uploadTypes.join(",");

type Upload = { state: "idle" | "sending" | "done" } | { state: "failed"; message: string };

export function ImageField({
  path,
  value,
  label,
  description,
}: {
  path: string;
  value: unknown;
  label: string;
  description?: string;
}) {
  const form = useContentForm();
  const image = isRecord(value) ? value : {};
  const [src, setSrc] = useState(asText(image.src));
  const [upload, setUpload] = useState<Upload>({ state: "idle" });
  const srcPath = joinPath(path, "src");
  const filePath = joinPath(path, "_file");
  const altPath = joinPath(path, "alt");
  const group = useFieldMessage(path, label);
  const srcMessage = useFieldMessage(srcPath, `${label}: the picture`);
  const altMessage = useFieldMessage(altPath, `${label}: its alt text`);
  const serverFileMessage = form.issues[filePath];
  const fileMessage =
    upload.state === "failed" ? upload.message : upload.state === "idle" ? serverFileMessage : undefined;

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
    <FieldGroup
      id={group.id}
      className="form-group picture-field"
      legend={label}
      hint={description}
      error={group.error}
    >
      <div className="current-picture">
        {src ? (
          <Picture image={{ src, alt: "" }} sizes="10rem" width={160} height={100} />
        ) : (
          <p className="field-hint">No picture chosen yet.</p>
        )}
      </div>
      <Field
        id={srcMessage.id}
        label="Picture on the site"
        hint="Type part of its name to see the site's pictures."
        error={srcMessage.error}
        input={{ name: srcPath, type: "text", list: picturesListId, value: src }}
        onValue={setSrc}
      >
        {form.hydrated ? (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => form.browse(path, (chosen) => setSrc(chosen))}
          >
            Choose from the site's pictures <span className="visually-hidden">for {label}</span>
          </button>
        ) : null}
      </Field>
      <Field
        id={fieldId(filePath)}
        label="Or upload a new picture"
        hint="A JPEG, PNG, WebP or AVIF of up to 15 MB. It is resized for the site, and its location and camera details are removed."
        error={fileMessage ? sentence("The picture", fileMessage) : undefined}
        input={{ name: filePath, type: "file", accept, onChange: onFile }}
      >
        <p className="form-progress" role="status">
          {upload.state === "sending"
            ? "Uploading the picture…"
            : upload.state === "done"
              ? "Uploaded: it is this field's picture now."
              : ""}
        </p>
      </Field>
      <Field
        id={altMessage.id}
        label="Alt text"
        hint="What the picture shows, for people who cannot see it."
        error={altMessage.error}
        input={{ name: altPath, type: "text", defaultValue: asText(image.alt) }}
      />
    </FieldGroup>
  );
}

/** The site's pictures as thumbnails to choose from (with JavaScript; the text field's list works without). */
export function PicturePicker({
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
