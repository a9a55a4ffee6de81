// For checking that an e-mail's text part says what its HTML shows: both as one line of words, the
// HTML's links written as the text part writes them ("words (address)"), a table's label followed
// by a colon, a quotation in quotation marks.

const normalise = (text: string) => text.replace(/\s+/g, " ").trim();

/** The words of an e-mail's text part, on one line. */
export function wordsOfText(text: string): string {
  return normalise(text);
}

/** The words an HTML e-mail shows, in order, on one line (its head and pictures left out). */
export function wordsOfHtml(html: string): string {
  return normalise(
    html
      .replace(/<head>[\s\S]*?<\/head>/, "")
      .replace(/<a href="mailto:([^"]*)"[^>]*>([\s\S]*?)<\/a>/g, (_, address: string, words: string) =>
        words === address ? words : `${words} (${address})`,
      )
      .replace(/<a href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g, "$2 ($1)")
      .replace(/<\/th>/g, ": ")
      .replace(/<blockquote[^>]*>/g, "“")
      .replace(/<\/blockquote>/g, "”")
      // Words in bold run on; every other element starts a new line.
      .replace(/<\/?strong>/g, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&"),
  );
}

/** WCAG's contrast ratio of two colours written #rrggbb. */
export function contrastRatio(foreground: string, background: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const channel = parseInt(hex.slice(i, i + 2), 16) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}
