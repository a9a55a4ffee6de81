import { z } from "zod";

// The content's picture field, apart from the helpers in images.ts: zod is for the content schema,
// the editor and the server, and every page that shows a picture imports images.ts
// (docs/decisions/036-a-light-first-visit.md).

/**
 * An image names a source picture under content/images/ without its extension
 * (e.g. "projects/water-well"); the build renders it to AVIF, WebP and JPEG at several widths.
 */
export const imageSchema = z
  .object({
    src: z
      .string()
      .regex(/^[a-z0-9-]+(\/[a-z0-9-]+)*$/, "must name an image under content/images, without extension")
      .meta({ title: "Picture" }),
    // Required text is checked with the content's other rules (every picture described): store.ts.
    alt: z.string().trim().meta({ title: "Description for people who cannot see it (alt text)" }),
  })
  // The page editor shows it as a picture to choose or upload (app/lib/editor-hints.ts).
  .meta({ title: "Picture", editor: { widget: "image" } });
export type Image = z.infer<typeof imageSchema>;
