import { describe, expect, it } from "vitest";
import { emptyEventForm, previewEvent } from "./event-form";

// The staff form's preview of the public card, while staff type.

describe("the event form's preview", () => {
  const typed = { ...emptyEventForm, name: "Golf Day", eventDate: "2026-12-05T10:00" };
  const linkOf = (link: string) => previewEvent({ ...typed, link }, "preview", "2026-11-27T09:00:00Z")?.event.link;

  it("links to a ticketing page the form would save", () => {
    expect(linkOf(" https://tickets.example.org/golf ")).toBe("https://tickets.example.org/golf");
  });

  it.each(["/\\evil.example/x", "javascript:alert(1)", "http://x.org", "https://user:pw@x.org"])(
    "shows no link for %j, which saving refuses",
    (link) => {
      expect(linkOf(link)).toBeNull();
    },
  );
});
