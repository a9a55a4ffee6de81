import type { Database } from "~/infra/db/database.server";
import { uploadPicture } from "~/infra/images/uploads.server";
import type { Clock } from "~/lib/clock";
import { AppError, type FieldErrors } from "~/lib/errors";
import type { ObjectNode } from "./field-tree";
import { readContentForm, type ReadForm } from "./form-values";

// The page editor's post, read on the server: its pictures stored first (each good one named on
// the form, so a mistake elsewhere does not lose it), then the fields read back by the schema.

/** The most pictures one post may carry (without JavaScript; with it each is uploaded on its own). */
const maxFilesPerPost = 4;

const fileKey = /^[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*\._file$/;

/** Stores the form's pictures, then reads its fields; a refused picture's message is under `<picture>._file`. */
export async function readPageForm(
  form: FormData,
  fields: ObjectNode,
  { db, clock }: { db: Database; clock: Clock },
  staff: { id: string },
): Promise<ReadForm> {
  const problems: FieldErrors = {};
  let stored = 0;
  for (const [key, file] of [...form.entries()]) {
    if (!fileKey.test(key) || !(file instanceof File) || (file.size === 0 && file.name === "")) continue;
    if (stored >= maxFilesPerPost) {
      problems[key] = `was not stored: at most ${maxFilesPerPost} pictures can be uploaded at once`;
      continue;
    }
    stored++;
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const { image } = await uploadPicture(db, bytes, {
        originalName: file.name,
        uploadedBy: staff.id,
        now: clock.now(),
      });
      form.set(key.replace(/\._file$/, ".src"), image);
    } catch (error) {
      if (!(error instanceof AppError && error.fields?.file)) throw error;
      problems[key] = error.fields.file;
    }
  }
  const read = readContentForm(fields, form);
  return { value: read.value, problems: { ...read.problems, ...problems } };
}
