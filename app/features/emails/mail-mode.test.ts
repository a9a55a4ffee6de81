import { describe, expect, it } from "vitest";
import { deliveredText, emailWentTo, leftLabel, mailMode, retriedText } from "./mail-mode";

describe("the words for how e-mail goes", () => {
  it("says Sent only when a mail server took the e-mail", () => {
    const sentAt = "2026-11-24T18:02:00Z";
    expect(deliveredText({ sentAt, deliveredBy: "smtp" })).toBe("Sent at Tue 24 Nov 2026, 18:02");
    expect(deliveredText({ sentAt, deliveredBy: "folder" })).toBe(
      "Written to the outbox folder (no mail server is set) at Tue 24 Nov 2026, 18:02",
    );
    expect(deliveredText({ sentAt, deliveredBy: null })).toBe("Left the outbox at Tue 24 Nov 2026, 18:02");
  });

  it("never tells staff an invitation was sent when it went to the folder", () => {
    expect(emailWentTo("smtp", "An invitation", "new@example.org")).toBe("An invitation was sent to new@example.org.");
    const folder = emailWentTo("folder", "An invitation", "new@example.org");
    expect(folder).toContain("written to the outbox folder");
    expect(folder).not.toMatch(/was sent/);
    expect(retriedText("folder")).not.toMatch(/sent/);
    expect(leftLabel("folder")).not.toMatch(/Sent/);
  });

  it("reads the mode from the outbox, a mailer that does not say counting as a mail server", () => {
    expect(mailMode({ outbox: { deliveredBy: "folder" } })).toBe("folder");
    expect(mailMode({ outbox: { deliveredBy: "smtp" } })).toBe("smtp");
    expect(mailMode({ outbox: {} })).toBe("smtp");
  });
});
