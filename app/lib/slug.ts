/**
 * Lower-case words of a title joined by hyphens, accents dropped, at most 60 characters
 * ("Clean Water for Kilele!" → "clean-water-for-kilele"); `fallback` when no letter or digit is left.
 * Project addresses and calendar file names are made with it.
 */
export function slugOf(title: string, fallback: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return slug || fallback;
}
