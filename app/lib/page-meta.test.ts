import { describe, expect, it } from "vitest";
import { pageMeta, summary, type ShareSite } from "./page-meta";

const site: ShareSite = {
  origin: "https://www.kilele.example",
  siteName: "Kilele Village Trust",
  image: { src: "wheel/village-sunrise", alt: "Kilele at sunrise" },
};

function tag(tags: ReturnType<typeof pageMeta>, key: string) {
  return tags.find((t) => ("property" in t && t.property === key) || ("name" in t && t.name === key));
}

describe("a page's tags", () => {
  it("give a shared link its title, summary, own picture and canonical address, all absolute", () => {
    const tags = pageMeta("Kilele Quiz Night", "Eight rounds and a supper.", {
      site,
      path: "/fundraising-event/abc",
      image: { src: "pages/quiz-night", alt: "Poster for Kilele Quiz Night" },
    });
    const value = (key: string) => (tag(tags, key) as { content?: string } | undefined)?.content;
    expect(tags).toContainEqual({ title: "Kilele Quiz Night" });
    expect(value("og:title")).toBe("Kilele Quiz Night");
    expect(value("og:description")).toBe("Eight rounds and a supper.");
    expect(value("og:type")).toBe("website");
    expect(value("og:site_name")).toBe("Kilele Village Trust");
    expect(value("og:url")).toBe("https://www.kilele.example/fundraising-event/abc");
    expect(value("og:image")).toBe("https://www.kilele.example/images/share/pages/quiz-night.jpg");
    expect(value("og:image:width")).toBe("1200");
    expect(value("og:image:height")).toBe("630");
    expect(value("og:image:alt")).toBe("Poster for Kilele Quiz Night");
    expect(value("twitter:card")).toBe("summary_large_image");
    expect(value("twitter:image")).toBe("https://www.kilele.example/images/share/pages/quiz-night.jpg");
    expect(tags).toContainEqual({
      tagName: "link",
      rel: "canonical",
      href: "https://www.kilele.example/fundraising-event/abc",
    });
  });

  it("show the site's picture for a page without one", () => {
    const tags = pageMeta("Donate", "Give by card.", { site, path: "/payment", image: null });
    expect((tag(tags, "og:image") as { content: string }).content).toBe(
      "https://www.kilele.example/images/share/wheel/village-sunrise.jpg",
    );
  });

  it("are only the title and description when the site's address is not known (an error page)", () => {
    expect(pageMeta("About Us", "Who we are.", { site: undefined, path: "/about" })).toEqual([
      { title: "About Us" },
      { name: "description", content: "Who we are." },
      { property: "og:title", content: "About Us" },
      { property: "og:description", content: "Who we are." },
    ]);
  });
});

describe("a summary for previews", () => {
  it("keeps a short text whole", () => {
    expect(summary("  Eight rounds\n and a supper. ")).toBe("Eight rounds and a supper.");
  });

  it("cuts a long one at a word, with an ellipsis, within the limit", () => {
    const long = "word ".repeat(60);
    const cut = summary(long, 160);
    expect(cut.length).toBeLessThanOrEqual(160);
    expect(cut.endsWith("word…")).toBe(true);
  });
});
