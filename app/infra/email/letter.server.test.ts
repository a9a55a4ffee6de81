import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { testCharity } from "../../../tests/support/content";
import { contrastRatio, wordsOfHtml, wordsOfText } from "../../../tests/support/mail-text";
import { composeLetter, mapLink, paragraphs, type Letter } from "./letter.server";

const letter: Letter = {
  to: { name: "Amina Mushi", address: "amina@example.org" },
  subject: "A letter",
  title: "Thank you & welcome",
  greeting: "Dear Amina Mushi,",
  charity: testCharity,
  blocks: [
    { paragraph: ["Your gift of ", { strong: "£10.00" }, " <arrived> safely."] },
    { heading: "Details" },
    {
      rows: [
        ["Date", "22/11/2026"],
        ["Directions", [{ link: "Map of St Mary's Hall", href: mapLink("St Mary's Hall, Ledbury") }]],
      ],
    },
    { quote: "I would like to help at the quiz." },
    { picture: { cid: "booking-qr", alt: "QR code for the door: booking 3F9A-1C2B", width: 160, height: 160 } },
    ...paragraphs("First paragraph.\n\nSecond\nparagraph."),
  ],
};

describe("a letter from the charity", () => {
  it("has a text part with the same words as its HTML, in the same order", async () => {
    const mail = await composeLetter(letter);
    expect(wordsOfText(mail.text)).toBe(wordsOfHtml(mail.html));
    expect(mail.text).toContain("Date: 22/11/2026");
    expect(mail.text).toContain("“I would like to help at the quiz.”");
    expect(mail.text.split("\n\n")).toContain("Second\nparagraph.");
    // Escaped in the HTML, as typed in the text.
    expect(mail.html).toContain("Thank you &amp; welcome");
    expect(mail.html).toContain("&lt;arrived&gt;");
    expect(mail.text).toContain("<arrived>");
  });

  it("ends with how to reach the charity, its number, and its address when the content has one", async () => {
    const plain = await composeLetter(letter);
    expect(plain.text).toContain("Questions? Reply to this e-mail, or write to kilele@example.org.");
    expect(plain.text).toContain("Kilele Village Trust, registered charity number 1187432");
    expect(plain.html).toContain('<a href="mailto:kilele@example.org"');
    expect(plain.text).not.toContain("Ledbury HR8");

    const withAddress = await composeLetter({
      ...letter,
      charity: { ...testCharity, address: "The Old School, Church Lane, Ledbury HR8 1AA" },
    });
    expect(withAddress.text).toContain(
      "Kilele Village Trust, registered charity number 1187432\nThe Old School, Church Lane, Ledbury HR8 1AA",
    );
    expect(wordsOfHtml(withAddress.html)).toContain("The Old School, Church Lane, Ledbury HR8 1AA");
  });

  it("carries the charity's logo inside it, as a PNG named by the HTML, described for those without pictures", async () => {
    const mail = await composeLetter(letter);
    const logo = mail.attachments?.find((a) => a.cid === "charity-logo");
    expect(logo).toMatchObject({ contentType: "image/png", filename: "logo.png" });
    const picture = await sharp(Buffer.from(logo!.content, "base64")).metadata();
    expect([picture.format, picture.width, picture.height]).toEqual(["png", 112, 112]);
    expect(mail.html).toContain('<img src="cid:charity-logo" width="56" height="56" alt="Kilele Village Trust"');
  });

  it("is accessible HTML: its language and title, layout tables as presentation, every picture described, dark text", async () => {
    const { html } = await composeLetter(letter);
    expect(html).toMatch(/^<!doctype html>\n<html lang="en-GB"/);
    expect(html).toContain("<title>Thank you &amp; welcome</title>");
    const tables = html.match(/<table[^>]*>/g) ?? [];
    const layout = tables.filter((t) => t.includes('role="presentation"'));
    // Two tables lay the letter out; the facts are a data table, each value with its label (th scope=row).
    expect(layout).toHaveLength(2);
    expect(tables).toHaveLength(3);
    expect(html).toContain('<th scope="row"');
    const images = html.match(/<img [^>]*>/g) ?? [];
    expect(images).toHaveLength(2);
    for (const image of images) expect(image).toMatch(/ alt="[^"]+"/);
    expect(html.match(/<h1[^>]*>/g)).toHaveLength(1);
    // Every colour text is written in reads at 7:1 or better on the white letter.
    const colours = [...html.matchAll(/(?<![-\w])color:(#[0-9a-f]{6})/g)].map((m) => m[1]!);
    expect(colours.length).toBeGreaterThan(3);
    for (const colour of new Set(colours)) expect(contrastRatio(colour, "#ffffff")).toBeGreaterThanOrEqual(7);
  });

  it("builds directions as an OpenStreetMap search for the place's words", () => {
    expect(mapLink("St Mary's Hall, Ledbury")).toBe(
      "https://www.openstreetmap.org/search?query=St+Mary%27s+Hall%2C+Ledbury",
    );
  });
});
