import { shareImageHeight, shareImageUrl, shareImageWidth, type Image } from "./images";

/** What every shared page has in common: the site's public address, its name, and the picture to show by default. */
export interface ShareSite {
  /** The public origin, without a trailing slash ("https://www.example.org"). */
  origin: string;
  siteName: string;
  /** The picture a page without one of its own is shown with. */
  image: Image;
}

/** How a page looks when its link is shared: its address and its own picture (the site's by default). */
export interface SharedPage {
  site: ShareSite | undefined;
  /** The page's canonical path ("/fundraising-event/<id>"), without its query. */
  path: string;
  image?: Image | null;
}

/**
 * The tags every page carries: its title and a description for search engines, and with `share`
 * the Open Graph and Twitter card tags that make a shared link show the page's picture and summary
 * (absolute addresses, a 1200×630 JPEG of the picture).
 */
export function pageMeta(title: string, description: string | undefined, share?: SharedPage) {
  const tags = [
    { title },
    ...(description ? [{ name: "description", content: description }] : []),
    { property: "og:title", content: title },
    ...(description ? [{ property: "og:description", content: description }] : []),
  ];
  if (!share?.site) return tags;
  const { origin, siteName } = share.site;
  const url = `${origin}${share.path}`;
  const image = share.image ?? share.site.image;
  const imageUrl = `${origin}${shareImageUrl(image.src)}`;
  return [
    ...tags,
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: siteName },
    { property: "og:url", content: url },
    { property: "og:locale", content: "en_GB" },
    { property: "og:image", content: imageUrl },
    { property: "og:image:type", content: "image/jpeg" },
    { property: "og:image:width", content: String(shareImageWidth) },
    { property: "og:image:height", content: String(shareImageHeight) },
    ...(image.alt ? [{ property: "og:image:alt", content: image.alt }] : []),
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    ...(description ? [{ name: "twitter:description", content: description }] : []),
    { name: "twitter:image", content: imageUrl },
    ...(image.alt ? [{ name: "twitter:image:alt", content: image.alt }] : []),
  ];
}

/** A description cut to what previews show (about 160 characters), at a word, with an ellipsis when cut. */
export function summary(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const atWord = cut.slice(0, Math.max(cut.lastIndexOf(" "), max / 2));
  return `${atWord.replace(/[\s,;:.–-]+$/, "")}…`;
}
