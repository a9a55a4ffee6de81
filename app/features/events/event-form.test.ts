import { describe, expect, it } from "vitest";
import {
  blankTypeRow,
  emptyEventForm,
  eventFieldLabel,
  previewEvent,
  removalQuestion,
  withNewTypeRow,
  type TicketTypeRow,
} from "./event-form";

// The staff form's preview of the public card, while staff type, and its ticket types (decision 080).

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

describe("the event form's ticket types", () => {
  const row = (change: Partial<TicketTypeRow>): TicketTypeRow => ({ ...blankTypeRow, ...change });

  it("turn the ticket cost typed into the first type when one is added, so nothing typed is lost", () => {
    const added = withNewTypeRow({ ...emptyEventForm, ticketCost: " 8.50 " });
    expect(added.ticketCost).toBe("");
    expect(added.ticketTypes).toEqual([row({ name: "Ticket", price: "8.50" }), blankTypeRow]);
    expect(withNewTypeRow(emptyEventForm).ticketTypes).toEqual([blankTypeRow]);
    expect(withNewTypeRow(added).ticketTypes).toHaveLength(3);
  });

  it("name each type's field in its message by its row", () => {
    expect(eventFieldLabel("ticketTypes.1.price")).toBe("Price (£) of ticket type 2");
    expect(eventFieldLabel("ticketTypes.0.cap")).toBe("Tickets of ticket type 1");
    expect(eventFieldLabel("ticketTypes.2.id")).toBe("Ticket type 3");
    expect(eventFieldLabel("ticketTypes")).toBe("Ticket types");
  });

  it("price the preview's card at the lowest type on sale and shown", () => {
    const values = {
      ...emptyEventForm,
      name: "Ceilidh",
      eventDate: "2026-12-05T19:00",
      ticketTypes: [
        row({ name: "Adult", price: "12.50" }),
        row({ name: "Child", price: "5", offSale: true }),
        row({ name: "Crew", price: "0", hidden: true }),
        row({ name: "Old", price: "1", remove: true }),
      ],
    };
    expect(previewEvent(values, "preview", "2026-11-27T09:00:00Z")?.event.ticketCostPence).toBe(1250);
    expect(
      previewEvent({ ...values, notSoldHere: true }, "preview", "2026-11-27T09:00:00Z")?.event.ticketCost,
    ).toBeNull();
  });

  it("ask before deleting a saved type, not one only added on the form", () => {
    const values = { ...emptyEventForm, ticketTypes: [row({ id: "a", name: "Child" })] };
    const form = new FormData();
    form.append("ticketTypes.0.id", "a");
    form.append("ticketTypes.0.name", "Child");
    form.append("ticketTypes.0.remove", "on");
    form.append("ticketTypes.1.id", "");
    form.append("ticketTypes.1.name", "Family");
    form.append("ticketTypes.1.remove", "on");
    expect(removalQuestion(form, values)).toEqual({
      title: "Delete ticket types?",
      message:
        "Delete the ticket type “Child” from this event? Once saved, it is gone and visitors can no longer buy it.",
      confirm: "Delete and save",
    });
    form.set("ticketTypes.0.remove", "");
    expect(removalQuestion(form, values)).toBeNull();
  });
});
