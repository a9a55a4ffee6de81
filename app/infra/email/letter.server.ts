import { escapeHtml } from "~/lib/html";
import type { Charity } from "../payments/provider.server";
import { logoAttachment, logoCid, logoSize } from "./logo.server";
import type { MailAttachment, MailMessage, MailRecipient } from "./mailer.server";

// The e-mails a visitor gets (receipts, refunds, a volunteer's welcome) are letters from the
// charity: its logo at the top, a heading, what the e-mail is about in blocks, and a foot with how
// to reach it, its registered number and address. One description of the blocks makes both parts,
// so the text part says everything the HTML does, and the HTML reads in order without its styles
// or pictures (mail programs drop either).

/** Part of a sentence: plain words, words in bold, or a link. */
export type Words = string | { strong: string } | { link: string; href: string };
/** A sentence: plain text, or parts of it. */
export type Line = string | Words[];

export type Block =
  | { heading: string }
  | { paragraph: Line }
  /** Facts as a two-column table (Date, Time, Total paid...): `Label: value` lines in the text part. */
  | { rows: [label: string, value: Line][] }
  | { quote: string }
  /** A picture attached inside the e-mail (cid); the text part has its words elsewhere. */
  | { picture: { cid: string; alt: string; width: number; height: number } };

export interface Letter {
  to: MailRecipient;
  subject: string;
  /** The heading at the top, and the HTML document's title. */
  title: string;
  /** "Dear Amina Mushi," */
  greeting: string;
  blocks: Block[];
  charity: Charity;
  attachments?: MailAttachment[];
}

// Colours with a contrast of 7:1 or more against their background (WCAG AAA for body text).
const ink = "#1d1d1b";
const green = "#143820";
const muted = "#4d4a44";
const paper = "#f4efe4";
const rule = "#ddd5c4";

function wordsText(words: Words): string {
  if (typeof words === "string") return words;
  if ("strong" in words) return words.strong;
  const shown = words.href.replace(/^mailto:/, "");
  return shown === words.link ? words.link : `${words.link} (${shown})`;
}

function wordsHtml(words: Words): string {
  if (typeof words === "string") return escapeHtml(words);
  if ("strong" in words) return `<strong>${escapeHtml(words.strong)}</strong>`;
  return `<a href="${escapeHtml(words.href)}" style="color:${green};text-decoration:underline">${escapeHtml(words.link)}</a>`;
}

const lineText = (line: Line) => (typeof line === "string" ? line : line.map(wordsText).join(""));
const lineHtml = (line: Line) => (typeof line === "string" ? escapeHtml(line) : line.map(wordsHtml).join(""));

function blockText(block: Block): string | undefined {
  if ("heading" in block) return block.heading;
  if ("paragraph" in block) return lineText(block.paragraph);
  if ("rows" in block) return block.rows.map(([label, value]) => `${label}: ${lineText(value)}`).join("\n");
  if ("quote" in block) return `“${block.quote}”`;
  return undefined;
}

function blockHtml(block: Block): string {
  if ("heading" in block) {
    return `<h2 style="margin:28px 0 8px;color:${green};font-size:18px;line-height:1.3">${escapeHtml(block.heading)}</h2>`;
  }
  if ("paragraph" in block) return `<p style="margin:0 0 14px">${lineHtml(block.paragraph)}</p>`;
  if ("rows" in block) {
    const rows = block.rows
      .map(
        ([label, value]) =>
          `<tr><th scope="row" align="left" valign="top" style="width:40%;padding:6px 16px 6px 0;border-bottom:1px solid ${rule};font-weight:bold">${escapeHtml(label)}</th><td valign="top" style="padding:6px 0;border-bottom:1px solid ${rule};word-break:break-word">${lineHtml(value)}</td></tr>`,
      )
      .join("\n");
    // A data table (not role=presentation): each value is announced with its label, under the heading before it.
    return `<table cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;margin:0 0 14px;width:100%">
${rows}
</table>`;
  }
  if ("quote" in block) {
    return `<blockquote style="margin:0 0 14px;padding:4px 0 4px 12px;border-left:4px solid #2f7a3e">${escapeHtml(block.quote)}</blockquote>`;
  }
  const { cid, alt, width, height } = block.picture;
  return `<p style="margin:0 0 14px"><img src="cid:${escapeHtml(cid)}" width="${width}" height="${height}" alt="${escapeHtml(alt)}" style="display:block;border:0"></p>`;
}

/** The foot of every letter: how to reach the charity (a reply reaches it), its number and address. */
function foot(charity: Charity): Line[] {
  return [
    ["Questions? Reply to this e-mail, or write to ", { link: charity.email, href: `mailto:${charity.email}` }, "."],
    `${charity.name}, registered charity number ${charity.registrationNumber}`,
    ...(charity.address ? [charity.address] : []),
    [{ link: charity.website.replace(/^https?:\/\//, ""), href: charity.website }],
  ];
}

/**
 * The e-mail a letter makes: HTML (accessible: its language, a title, layout tables marked as
 * presentation, every picture described, dark text on light ground) and a text part with the
 * same words, with the charity's logo attached inside it.
 */
export async function composeLetter(letter: Letter): Promise<MailMessage> {
  const logo = await logoAttachment();
  const { charity } = letter;

  const text = [
    letter.title,
    "",
    letter.greeting,
    "",
    ...letter.blocks.flatMap((block) => {
      const words = blockText(block);
      return words === undefined ? [] : [words, ""];
    }),
    ...foot(charity).map(lineText),
  ].join("\n");

  const letterhead = logo
    ? `<img src="cid:${logoCid}" width="${logoSize}" height="${logoSize}" alt="${escapeHtml(charity.name)}" style="display:block;border:0;color:${green};font-weight:bold;font-size:18px">`
    : `<p style="margin:0;color:${green};font-weight:bold;font-size:18px">${escapeHtml(charity.name)}</p>`;
  const html = `<!doctype html>
<html lang="en-GB" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(letter.title)}</title>
</head>
<body style="margin:0;padding:0;background-color:${paper};color:${ink};font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:${paper}">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background-color:#ffffff;color:${ink};border:1px solid ${rule};border-radius:8px">
<tr><td style="padding:24px 24px 0">${letterhead}</td></tr>
<tr><td style="padding:16px 24px 12px">
<h1 style="margin:0 0 16px;color:${green};font-size:24px;line-height:1.25">${escapeHtml(letter.title)}</h1>
<p style="margin:0 0 14px">${escapeHtml(letter.greeting)}</p>
${letter.blocks.map(blockHtml).join("\n")}
</td></tr>
<tr><td style="padding:16px 24px 24px;border-top:1px solid ${rule};color:${muted};font-size:14px">
${foot(charity)
  .map((line) => `<p style="margin:0 0 6px">${lineHtml(line)}</p>`)
  .join("\n")}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;

  return {
    to: letter.to,
    subject: letter.subject,
    text,
    html,
    attachments: [...(logo ? [logo] : []), ...(letter.attachments ?? [])],
  };
}

/** A map of a place, for directions: OpenStreetMap's search for the words of the location. */
export function mapLink(location: string): string {
  const url = new URL("https://www.openstreetmap.org/search");
  url.searchParams.set("query", location);
  return url.toString();
}

/** The charity's text, split into paragraphs at blank lines. */
export function paragraphs(text: string): Block[] {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => ({ paragraph }));
}
