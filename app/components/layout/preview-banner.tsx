/**
 * Shown above a public page rendered with staff's drafts in place of the published content
 * (server/content-preview.ts): visitors never see it, nor the drafts.
 */
export function PreviewBanner({ invalid }: { invalid: string[] }) {
  return (
    <section className="preview-banner" aria-label="Preview">
      <p>
        <strong>Preview: not yet published.</strong> Visitors still see the published page until the draft is published.
        {invalid.length > 0
          ? ` The draft of ${invalid.join(", ")} has mistakes to put right first, so its published content is shown here.`
          : null}{" "}
        <a href="/admin/pages">Back to the page editor</a>
      </p>
    </section>
  );
}
