import type { Database } from "~/infra/db/database.server";
import type { PictureLibrary } from "~/infra/images/uploads.server";
import { londonDate } from "~/lib/london-time";
import type { PictureChoice } from "../components/content-form-context";

/** The site's pictures as the editor offers them: uploads newest first ("Uploaded 24/11/2026: poster.jpg"), then content/images by name. */
export async function picturesForEditor({
  db,
  pictures,
}: {
  db: Database;
  pictures: PictureLibrary;
}): Promise<PictureChoice[]> {
  return (await pictures.list(db)).map((picture) => ({
    src: picture.src,
    label: picture.uploaded
      ? `Uploaded ${londonDate(picture.uploaded.at)}: ${picture.uploaded.originalName || "a picture"}`
      : picture.src,
  }));
}
