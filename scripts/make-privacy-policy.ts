// Writes public/privacy-policy.pdf, the charity's privacy notice, as a small hand-built PDF 1.4:
// A4 pages, the standard Helvetica fonts (nothing embedded), text wrapped using Helvetica's
// published glyph widths, and a cross-reference table with exact byte offsets. No dependencies.
// Run with `npx tsx scripts/make-privacy-policy.ts`; the output is the same byte for byte each time.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outFile = join(root, "public", "privacy-policy.pdf");

const charity = "Kilele Village Trust";
const regNo = "1187432";
const email = "kilele@example.org";
const updated = "1 March 2025";

// ---------------------------------------------------------------------------
// The text
// ---------------------------------------------------------------------------

type Block =
  | { kind: "title"; text: string }
  | { kind: "meta"; text: string }
  | { kind: "h"; text: string }
  | { kind: "p"; text: string }
  | { kind: "li"; label?: string; text: string };

const h = (text: string): Block => ({ kind: "h", text });
const p = (text: string): Block => ({ kind: "p", text });
const li = (label: string | undefined, text: string): Block => ({ kind: "li", label, text });

const policy: Block[] = [
  { kind: "title", text: "Privacy policy" },
  { kind: "meta", text: `${charity} – registered charity in England and Wales no. ${regNo} – last updated ${updated}` },
  p(
    `This policy explains what personal information ${charity} collects when you book a ticket for one of our events, make a donation, sign up to volunteer or get in touch, why we collect it, how we look after it and what your rights are under the UK General Data Protection Regulation (UK GDPR) and the Data Protection Act 2018.`,
  ),
  h("1. Who we are"),
  p(
    `${charity} ("we", "us") is a small charity that raises money for the village of Kilele in rural Tanzania. We are the controller of the personal information described here. Our trustees are responsible for data protection and our Secretary leads on it day to day. You can contact us about anything in this policy at ${email}.`,
  ),
  h("2. What information we collect"),
  li(
    "Event bookings:",
    "your name, e-mail address, the event, the number of tickets, the amount paid, your booking reference and the date of purchase.",
  ),
  li(
    "Donations:",
    "your name, e-mail address, the amount and date of your gift. Card details are entered directly into our card payment processor's secure form; we never see or store your full card number.",
  ),
  li(
    "Gift Aid declarations:",
    "your full name, home address and postcode, your confirmation that you are a UK taxpayer, the date of your declaration and the donations it covers.",
  ),
  li("Volunteer sign-ups:", "your name, e-mail address and the reason you give for wanting to volunteer."),
  li("Messages:", "anything you choose to tell us when you e-mail us."),
  li(
    "Our website:",
    "we do not use advertising or tracking cookies. Our web server keeps short technical logs (such as IP address and the pages requested) to keep the site secure.",
  ),
  h("3. Why we use it, and our lawful basis"),
  li(
    "To provide what you asked for (contract):",
    "processing your booking, sending your e-mail receipt and booking reference, and admitting you to the event.",
  ),
  li(
    "To meet our legal obligations:",
    "keeping accounting records of payments and donations, and keeping Gift Aid declarations so that we can claim Gift Aid and show HMRC that our claims are correct.",
  ),
  li(
    "In our legitimate interests:",
    "replying to your messages, arranging volunteering, thanking you for your support, and protecting our website and our supporters from fraud and misuse. We only do this where it does not override your own interests and rights.",
  ),
  li(
    "With your consent:",
    "sending you our newsletter or news of future events, only if you have asked us to. You can withdraw your consent at any time by e-mailing us or using the unsubscribe link.",
  ),
  h("4. How long we keep it"),
  li(
    undefined,
    "Booking and donation records: six years after the end of the financial year they relate to, as accounting rules require.",
  ),
  li(
    undefined,
    "Gift Aid declarations: six years after the end of the accounting period of the last donation the declaration covers, as HMRC requires.",
  ),
  li(
    undefined,
    "Volunteer sign-ups and correspondence: two years after we were last in touch, unless you ask us to delete them sooner.",
  ),
  li(undefined, "Website server logs: 30 days."),
  h("5. Who we share it with"),
  p(
    "We never sell, rent or swap your personal information. We share it only with organisations that help us run the charity, under contracts that require them to keep it safe and use it only on our instructions, or where the law requires:",
  ),
  li(
    "Our card payment processor,",
    "which takes card payments for bookings and donations securely and may use payment details to prevent fraud.",
  ),
  li(
    "HM Revenue & Customs (HMRC),",
    "to whom we send the name, home address, postcode, donation amounts and dates of donors who have made a Gift Aid declaration, so that we can claim Gift Aid.",
  ),
  li(
    "Our e-mail delivery and website hosting providers,",
    "which send your receipts and store our booking and volunteer records.",
  ),
  p(
    "Some of these providers may process information outside the UK. Where they do, we make sure it is protected by UK adequacy regulations or the International Data Transfer Agreement. We do not pass supporters' personal information to our partners in Tanzania.",
  ),
  h("6. Your rights"),
  p(
    "You have the right to ask for a copy of the personal information we hold about you; to have it corrected if it is wrong; to have it deleted or its use restricted; to object to our using it on the basis of legitimate interests; to receive it in a portable format; and to withdraw consent at any time. We do not make decisions about you by automated means. To use any of these rights, e-mail us. There is no charge, and we will reply within one month.",
  ),
  h("7. Contact and complaints"),
  p(
    `If you have a question or concern about how we handle your information, please e-mail ${email} and we will do our best to put it right. You also have the right to complain to the Information Commissioner's Office (ICO), the UK's data protection regulator, at ico.org.uk/make-a-complaint or on 0303 123 1113.`,
  ),
  h("8. Changes to this policy"),
  p(
    "We review this policy every year and whenever we change how we use personal information. The date at the top shows when it was last updated.",
  ),
];

// ---------------------------------------------------------------------------
// Fonts: Helvetica glyph widths (thousandths of an em) from the Adobe AFM files
// ---------------------------------------------------------------------------

type Font = "F1" | "F2"; // F1 Helvetica, F2 Helvetica-Bold

// prettier-ignore
const asciiWidths: Record<Font, number[]> = {
  // Character codes 32 to 126 in WinAnsiEncoding.
  F1: [278,278,355,556,556,889,667,191,333,333,389,584,278,333,278,278,556,556,556,556,556,556,556,556,556,556,278,278,584,584,584,556,1015,667,667,722,722,667,611,778,722,278,500,667,556,833,722,778,667,778,722,667,611,722,667,944,667,667,611,278,278,278,469,556,333,556,556,500,556,556,278,556,556,222,222,500,222,833,556,556,556,556,333,500,278,556,500,722,500,500,500,334,260,334,584],
  F2: [278,333,474,556,556,889,722,238,333,333,389,584,278,333,278,278,556,556,556,556,556,556,556,556,556,556,333,333,584,584,584,611,975,722,722,722,722,667,611,778,722,278,556,722,611,833,722,778,667,778,722,667,611,722,667,944,667,667,611,333,278,333,584,556,333,556,611,556,611,556,333,611,611,278,278,556,278,889,611,611,611,611,389,556,333,611,556,778,556,556,500,389,280,389,584],
};

/** The few characters beyond ASCII that the text uses, as WinAnsi codes with their widths. */
const extraGlyphs: Record<string, { code: number; F1: number; F2: number }> = {
  "–": { code: 0x96, F1: 556, F2: 556 },
  "•": { code: 0x95, F1: 350, F2: 350 },
  "‘": { code: 0x91, F1: 222, F2: 278 },
  "’": { code: 0x92, F1: 222, F2: 278 },
  "“": { code: 0x93, F1: 333, F2: 500 },
  "”": { code: 0x94, F1: 333, F2: 500 },
  "£": { code: 0xa3, F1: 556, F2: 556 },
};

function glyph(ch: string, font: Font): { code: number; width: number } {
  const c = ch.codePointAt(0)!;
  if (c >= 32 && c <= 126) return { code: c, width: asciiWidths[font][c - 32]! };
  const extra = extraGlyphs[ch];
  if (!extra)
    throw new Error(`The privacy policy uses a character Helvetica/WinAnsi cannot show here: ${JSON.stringify(ch)}`);
  return { code: extra.code, width: extra[font] };
}

function textWidth(text: string, font: Font, size: number): number {
  let w = 0;
  for (const ch of text) w += glyph(ch, font).width;
  return (w * size) / 1000;
}

/** A PDF literal string in WinAnsi bytes, with the characters PDF reserves escaped. */
function pdfString(text: string, font: Font): string {
  let out = "(";
  for (const ch of text) {
    const { code } = glyph(ch, font);
    if (ch === "(" || ch === ")" || ch === "\\") out += `\\${ch}`;
    else if (code > 126) out += `\\${code.toString(8).padStart(3, "0")}`;
    else out += ch;
  }
  return `${out})`;
}

// ---------------------------------------------------------------------------
// Layout: wrap each block into lines, then fill A4 pages top to bottom
// ---------------------------------------------------------------------------

const pageW = 595.28;
const pageH = 841.89;
const margin = { left: 56, right: 56, top: 62, bottom: 64 };
const textW = pageW - margin.left - margin.right;
const bulletIndent = 14;

interface Word {
  text: string;
  font: Font;
}
interface Line {
  x: number;
  size: number;
  words: Word[];
  colour: string;
  bullet?: boolean;
}
interface Placed {
  lines: Line[];
  leading: number;
  spaceBefore: number;
  spaceAfter: number;
  keepWithNext?: boolean;
}

function wrap(words: Word[], size: number, width: number): Word[][] {
  const lines: Word[][] = [];
  let line: Word[] = [];
  let used = 0;
  for (const word of words) {
    const w = textWidth(word.text, word.font, size);
    const space = line.length > 0 ? textWidth(" ", line[line.length - 1]!.font, size) : 0;
    if (line.length > 0 && used + space + w > width) {
      lines.push(line);
      line = [];
      used = 0;
    }
    used += (line.length > 0 ? space : 0) + w;
    line.push(word);
  }
  if (line.length > 0) lines.push(line);
  return lines;
}

const words = (text: string, font: Font): Word[] =>
  text
    .split(/\s+/)
    .filter(Boolean)
    .map((t) => ({ text: t, font }));

function layout(block: Block): Placed {
  switch (block.kind) {
    case "title":
      return {
        lines: [{ x: margin.left, size: 22, words: words(block.text, "F2"), colour: "0.11 0.37 0.34" }],
        leading: 26,
        spaceBefore: 0,
        spaceAfter: 4,
      };
    case "meta":
      return {
        lines: wrap(words(block.text, "F1"), 9, textW).map((w) => ({
          x: margin.left,
          size: 9,
          words: w,
          colour: "0.35 0.35 0.35",
        })),
        leading: 12,
        spaceBefore: 0,
        spaceAfter: 12,
      };
    case "h":
      return {
        lines: [{ x: margin.left, size: 11.5, words: words(block.text, "F2"), colour: "0.11 0.37 0.34" }],
        leading: 15,
        spaceBefore: 9,
        spaceAfter: 2,
        keepWithNext: true,
      };
    case "p":
      return {
        lines: wrap(words(block.text, "F1"), 9.5, textW).map((w) => ({
          x: margin.left,
          size: 9.5,
          words: w,
          colour: "0.1 0.1 0.1",
        })),
        leading: 12.6,
        spaceBefore: 0,
        spaceAfter: 5,
      };
    case "li": {
      const all = [...(block.label ? words(block.label, "F2") : []), ...words(block.text, "F1")];
      const lines = wrap(all, 9.5, textW - bulletIndent).map((w, i): Line => ({
        x: margin.left + bulletIndent,
        size: 9.5,
        words: w,
        colour: "0.1 0.1 0.1",
        bullet: i === 0,
      }));
      return { lines, leading: 12.6, spaceBefore: 0, spaceAfter: 3 };
    }
  }
}

function lineOps(line: Line, y: number): string {
  const ops: string[] = [`${line.colour} rg`];
  if (line.bullet)
    ops.push(`BT /F1 ${line.size} Tf ${fmt(line.x - bulletIndent + 3)} ${fmt(y)} Td ${pdfString("•", "F1")} Tj ET`);
  // One text object per line; switch fonts between runs, keeping the spaces in the current run.
  let text = `BT ${fmt(line.x)} ${fmt(y)} Td`;
  let font: Font | undefined;
  let run = "";
  const flush = () => {
    if (run && font) text += ` /${font} ${line.size} Tf ${pdfString(run, font)} Tj`;
    run = "";
  };
  line.words.forEach((word, i) => {
    if (word.font !== font) {
      flush();
      font = word.font;
    }
    run += (i > 0 ? " " : "") + word.text;
  });
  flush();
  ops.push(`${text} ET`);
  return ops.join("\n");
}

const fmt = (n: number): string => String(Math.round(n * 100) / 100);

/** A text string outside page content (the document information) as UTF-16BE, which any reader decodes. */
function infoString(text: string): string {
  let hex = "FEFF";
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).toUpperCase().padStart(4, "0");
  return `<${hex}>`;
}

function paginate(blocks: Placed[]): string[][] {
  const pages: string[][] = [[]];
  let y = pageH - margin.top;
  const bottom = margin.bottom;
  blocks.forEach((block, bi) => {
    const next = blocks[bi + 1];
    const needed =
      block.spaceBefore +
      block.leading * Math.min(block.lines.length, 2) +
      (block.keepWithNext && next ? next.leading * 2 : 0);
    if (y - needed < bottom) {
      pages.push([]);
      y = pageH - margin.top;
    } else if (pages[pages.length - 1]!.length > 0) {
      y -= block.spaceBefore;
    }
    for (const line of block.lines) {
      if (y - block.leading < bottom) {
        pages.push([]);
        y = pageH - margin.top;
      }
      y -= block.leading;
      pages[pages.length - 1]!.push(lineOps(line, y + (block.leading - line.size)));
    }
    y -= block.spaceAfter;
  });
  return pages;
}

// ---------------------------------------------------------------------------
// The PDF file itself
// ---------------------------------------------------------------------------

function buildPdf(pageStreams: string[][]): Buffer {
  const objects: string[] = [];
  const add = (body: string): number => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add("");
  const pagesObj = add("");
  const helvetica = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  const helveticaBold = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>");
  const info = add(
    `<< /Title ${infoString(`Privacy policy – ${charity}`)} /Author ${infoString(charity)} /Subject ${infoString("How we collect, use and protect personal information")} /Creator (scripts/make-privacy-policy.ts) /CreationDate (D:20250301000000Z) /ModDate (D:20250301000000Z) >>`,
  );
  const pageIds: number[] = [];
  pageStreams.forEach((ops, i) => {
    const footer = [
      "0.75 0.75 0.75 RG 0.5 w",
      `${fmt(margin.left)} ${fmt(margin.bottom - 18)} m ${fmt(pageW - margin.right)} ${fmt(margin.bottom - 18)} l S`,
      `0.4 0.4 0.4 rg BT /F1 8 Tf ${fmt(margin.left)} ${fmt(margin.bottom - 32)} Td ${pdfString(`${charity} – registered charity no. ${regNo} – ${email}`, "F1")} Tj ET`,
    ];
    const pageLabel = `Page ${i + 1} of ${pageStreams.length}`;
    footer.push(
      `BT /F1 8 Tf ${fmt(pageW - margin.right - textWidth(pageLabel, "F1", 8))} ${fmt(margin.bottom - 32)} Td ${pdfString(pageLabel, "F1")} Tj ET`,
    );
    const content = [...ops, ...footer].join("\n");
    const stream = add(`<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`);
    pageIds.push(
      add(
        `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${fmt(pageW)} ${fmt(pageH)}] /Resources << /Font << /F1 ${helvetica} 0 R /F2 ${helveticaBold} 0 R >> >> /Contents ${stream} 0 R >>`,
      ),
    );
  });
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] =
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pageIds.length} >>`;

  // The header's second line holds bytes above 127 so that tools treat the file as binary.
  let out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

const pages = paginate(policy.map(layout));
if (pages.length > 2) console.warn(`make-privacy-policy: the policy now runs to ${pages.length} pages`);
mkdirSync(dirname(outFile), { recursive: true });
const pdf = buildPdf(pages);
writeFileSync(outFile, pdf);
console.log(`Wrote ${outFile} (${pages.length} pages, ${pdf.length} bytes)`);
