// How the staff page editor (/admin/pages) shows a field, said in the content's own zod schemas with
// `.meta({ title, description, editor })`: zod's JSON Schema output carries these to the editor's
// renderer (app/features/content/editor/), so a field added to a schema appears in the editor
// with its label and help, without a form written for it. docs/decisions/032-the-page-editor.md.

export interface EditorHints {
  /**
   * `textarea`: a longer text, several lines. `image`: a picture `{src, alt}`, chosen from the
   * site's pictures or uploaded. `slug`: a project's address, shown and never edited (the store
   * makes it from the title when a new project is first published).
   */
  widget?: "textarea" | "image" | "slug";
  /** For `slug`: the start of the address it makes ("/project/"). */
  prefix?: string;
  /** For a list: a sibling list its items can be moved to ("previousProjects"), with the button's words. */
  moveTo?: { field: string; label: string };
  /**
   * On a top-level field of a page: it starts a section of the editor with this title ("Top of
   * the page", "Projects"), which holds it and the fields after it until the next section. A
   * page whose fields start no section is edited as one (docs/decisions/075-the-page-editor-by-sections.md).
   */
  section?: string;
  /** For a list of large items (projects): each item is drawn closed under its name, opened to edit it. */
  collapse?: boolean;
}

declare module "zod/v4/core" {
  interface GlobalMeta {
    editor?: EditorHints;
  }
}
