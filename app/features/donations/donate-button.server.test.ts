import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditLog, siteSettings, staffUsers } from "~db/schema";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { engines, freshDatabase } from "../../../tests/support/databases";
import {
  donateButtonKey,
  donateButtonSettings,
  donateLink,
  ownDonationPage,
  saveDonateButton,
} from "./donate-button.server";
import { externalDonationPageMessage, parseExternalDonationPage } from "./schema";

describe("the External donation page setting", () => {
  it("may be left empty: the site's own page", () => {
    expect(parseExternalDonationPage("")).toEqual({ ok: true, url: null });
    expect(parseExternalDonationPage("   ")).toEqual({ ok: true, url: null });
  });

  it("takes a full https address, trimmed", () => {
    expect(parseExternalDonationPage("  https://www.example.org/donate?fund=kilele ")).toEqual({
      ok: true,
      url: "https://www.example.org/donate?fund=kilele",
    });
    expect(parseExternalDonationPage("https://Give.Example.net")).toEqual({
      ok: true,
      url: "https://give.example.net/",
    });
  });

  it.each([
    ["plain http", "http://www.example.org/donate"],
    ["no scheme", "www.example.org/donate"],
    ["a script", "javascript:alert(1)"],
    ["another scheme", "ftp://example.org/donate"],
    ["no real host", "https://localhost/donate"],
    ["a password in it", "https://user:secret@example.org/donate"],
    ["no slashes after https:", "https:give.example.net/kilele"],
    ["a tab, which browsers drop", "https://give.example.net/\tkilele"],
    ["spaces", "https://example.org/give now"],
    ["not an address", "donate here"],
    ["far too long", `https://example.org/${"a".repeat(600)}`],
  ])("refuses %s with a clear message", (_, input) => {
    expect(parseExternalDonationPage(input)).toEqual({ ok: false, message: externalDonationPageMessage });
  });
});

describe.each(engines)("the Donate button's target on %s", (engine) => {
  let database: DatabaseHandle;
  let staff: { id: string; email: string };
  const now = new Date("2026-11-22T09:00:00Z");
  beforeEach(async () => {
    database = await freshDatabase(engine);
    const [member] = await database.db
      .insert(staffUsers)
      .values({ email: "staff@example.org", passwordHash: "not used here", createdAt: now })
      .returning({ id: staffUsers.id, email: staffUsers.email });
    staff = member!;
  });
  afterEach(() => database.close());

  it("is the site's own donation page until staff name another", async () => {
    expect(await donateLink(database)).toEqual({ href: "/payment", external: false });
    expect(ownDonationPage).toEqual({ href: "/payment", external: false });
  });

  it("is the external page staff save, opened in a new tab, and audited without naming anyone", async () => {
    await saveDonateButton(database, staff, { externalUrl: "https://give.example.net/kilele" }, { now });
    expect(await donateLink(database)).toEqual({ href: "https://give.example.net/kilele", external: true });
    const [entry] = await database.db.select().from(auditLog);
    expect(entry).toMatchObject({ action: "settings.changed", subject: `setting:${donateButtonKey}` });
    expect(entry!.summary).toContain("give.example.net");

    await saveDonateButton(database, staff, { externalUrl: "" }, { now });
    expect(await donateLink(database)).toEqual({ href: "/payment", external: false });
    expect(await database.db.$count(auditLog)).toBe(2);
  });

  it("refuses a bad address with the field's message and changes nothing", async () => {
    await saveDonateButton(database, staff, { externalUrl: "https://give.example.net/kilele" }, { now });
    await expect(
      saveDonateButton(database, staff, { externalUrl: "http://give.example.net/kilele" }, { now }),
    ).rejects.toMatchObject({ code: "invalid", fields: { externalUrl: externalDonationPageMessage } });
    expect(await donateButtonSettings(database)).toEqual({ externalUrl: "https://give.example.net/kilele" });
    expect(await database.db.$count(auditLog)).toBe(1);
  });

  it("never sends the button to a stored address that is not an https page", async () => {
    await database.db.insert(siteSettings).values({
      key: donateButtonKey,
      value: { externalUrl: "javascript:alert(1)" },
      updatedAt: now,
      updatedBy: "someone@example.org",
    });
    expect(await donateLink(database)).toEqual({ href: "/payment", external: false });
  });
});
