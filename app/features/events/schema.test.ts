import { describe, expect, it } from "vitest";
import { fieldErrors } from "~/lib/forms";
import { eventChangesSchema, newEventSchema } from "./schema";

const valid = {
  name: "Quiz Night",
  description: "Eight rounds and a supper.",
  posterImage: "pages/quiz-night",
  eventDate: "2026-12-05T19:00:00Z",
  location: "Village hall",
  ticketCost: 12.5,
  totalAvailableTickets: 80,
  ticketSaleExpiry: "2026-12-04T12:00:00Z",
};

describe("a new event from staff", () => {
  it("is accepted with the spec's field names, the cost turned into pence and the defaults filled", () => {
    const parsed = newEventSchema.parse(valid);
    expect(parsed).toMatchObject({ ticketCost: 1250, isTest: false, link: null, testimonial: null, galleryImages: [] });
  });

  it("may have no poster and no reviewer's photo: left out, empty or null, kept as an empty name", () => {
    const review = { name: "Joseph", job: "Head teacher", testimonial: "Asante!" };
    const { posterImage: _, ...withoutPoster } = valid;
    expect(newEventSchema.parse({ ...withoutPoster, testimonial: review })).toMatchObject({
      posterImage: "",
      testimonial: { image: "" },
    });
    expect(newEventSchema.parse({ ...valid, posterImage: null }).posterImage).toBe("");
    expect(newEventSchema.parse({ ...valid, posterImage: " " }).posterImage).toBe("");
    expect(eventChangesSchema.parse({ posterImage: null })).toEqual({ posterImage: "" });
    expect(
      newEventSchema.parse({ ...valid, posterImage: "uploads/0b7c6f1e-5a3d-4c1e-9d2a-6f8e1b2c3d4e" }).posterImage,
    ).toBe("uploads/0b7c6f1e-5a3d-4c1e-9d2a-6f8e1b2c3d4e");
  });

  it("may have no online ticket cost (null)", () => {
    expect(newEventSchema.parse({ ...valid, ticketCost: null }).ticketCost).toBeNull();
  });

  it("links to a ticketing page by an https address, kept as typed", () => {
    expect(newEventSchema.parse({ ...valid, link: " https://tickets.example.org/quiz " }).link).toBe(
      "https://tickets.example.org/quiz",
    );
  });

  // The one rule for staff's links (docs/decisions/056-one-rule-for-staff-links.md).
  it.each(["http://x.org", "https://user:pw@x.org", "https:evil.example", "https://exa\tmple.org", "/fundraising"])(
    "refuses the link %j",
    (link) => {
      for (const schema of [newEventSchema, eventChangesSchema]) {
        const result = schema.safeParse({ ...valid, link });
        expect(fieldErrors(result.error!)).toEqual({
          link: expect.stringContaining("must be an address starting with https://"),
        });
      }
    },
  );

  it("takes 19.99 as exactly 1999 pence", () => {
    expect(newEventSchema.parse({ ...valid, ticketCost: 19.99 }).ticketCost).toBe(1999);
  });

  it.each([
    [{ name: "" }, "name", "must not be blank"],
    [{ ticketCost: -1 }, "ticketCost", "must be an amount in pounds, 0 or more, with at most two decimals"],
    [{ ticketCost: 1.234 }, "ticketCost", "must be an amount in pounds, 0 or more, with at most two decimals"],
    [{ ticketCost: "12" }, "ticketCost", "must be a number of pounds (e.g. 12.5) or null"],
    [{ totalAvailableTickets: 2.5 }, "totalAvailableTickets", "must be a whole number"],
    [{ totalAvailableTickets: -3 }, "totalAvailableTickets", "must be 0 or more"],
    [{ eventDate: "next Friday" }, "eventDate", "must be an ISO 8601 date-time, e.g. 2026-12-05T19:00:00Z"],
    [{ ticketSaleExpiry: "2026-12-06T12:00:00Z" }, "ticketSaleExpiry", "must not be after eventDate"],
    [{ posterImage: "https://elsewhere.example/x.jpg" }, "posterImage", expect.stringContaining("must name a picture")],
    [{ posterImage: "/uploads/x.jpg" }, "posterImage", expect.stringContaining("must name a picture")],
    [{ posterImage: 7 }, "posterImage", expect.stringContaining('or "" for none')],
    [{ link: "javascript:alert(1)" }, "link", expect.stringContaining("must be an address starting with https://")],
    [{ isTest: "yes" }, "isTest", "must be true or false"],
    [{ colour: "red" }, "body", "unknown field(s): colour"],
  ])("refuses %j, naming %s", (change, field, message) => {
    const result = newEventSchema.safeParse({ ...valid, ...change });
    expect(result.success).toBe(false);
    expect(fieldErrors(result.error!)).toEqual(expect.objectContaining({ [field]: message }));
  });

  it("lists every missing required field", () => {
    const result = newEventSchema.safeParse({});
    expect(Object.keys(fieldErrors(result.error!)).sort()).toEqual(
      ["description", "eventDate", "name", "ticketCost", "ticketSaleExpiry", "totalAvailableTickets"].sort(),
    );
  });
});

describe("changes to an event", () => {
  it("may name any subset of fields", () => {
    expect(eventChangesSchema.parse({ totalAvailableTickets: 10 })).toEqual({ totalAvailableTickets: 10 });
    expect(eventChangesSchema.parse({})).toEqual({});
  });
  it("are checked with the same rules", () => {
    expect(eventChangesSchema.safeParse({ ticketCost: 0.001 }).success).toBe(false);
  });
});
