// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BookingForm, confirmationUrl } from "./booking-form";

// The browser's side of giving seats back (docs/decisions/019-seat-holds-given-back.md): the form
// asks the server to release the visitor's own unpaid attempt, with its client secret, when the
// card is refused, when the quantity changes, and when the visitor leaves. The server decides.

const event = {
  id: "6f1c2a9e-0000-4000-8000-000000000001",
  name: "Quiz Night",
  eventDate: "2030-07-04T18:30:00.000Z",
  location: "St Mary's Hall",
  ticketCostPence: 1250,
};
const bookingRef = "3f9a1c2b-1111-4111-8111-111111111111";
const clientSecret = "pi_offline_abc_secret_def";
const releaseUrl = `/api/bookings/${bookingRef}/release`;

type Call = { url: string; body: Record<string, unknown> };

describe("the booking form gives back its own seats", () => {
  let calls: Call[];
  let confirm: () => Promise<Response>;
  let beacons: { url: string; body: Promise<string> }[];
  let releaseGate: Promise<void>;

  beforeEach(() => {
    calls = [];
    beacons = [];
    releaseGate = Promise.resolve();
    vi.stubGlobal("matchMedia", () => ({ matches: false, addEventListener() {}, removeEventListener() {} }));
    Element.prototype.scrollIntoView = () => {};
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      calls.push({ url, body: JSON.parse(String(init.body)) as Record<string, unknown> });
      if (url === "/api/bookings") {
        return Response.json(
          { bookingRef, clientSecret, amountPence: 2549, holdExpiresAt: "2030-07-01T10:15:00.000Z" },
          { status: 201 },
        );
      }
      if (url === "/api/payments/offline/confirm") return confirm();
      if (url === releaseUrl) {
        await releaseGate;
        return Response.json({ status: "released" });
      }
      return Response.json({ error: "Not found", code: "not-found" }, { status: 404 });
    });
    Object.defineProperty(navigator, "sendBeacon", {
      configurable: true,
      value: (url: string, data: Blob) => {
        beacons.push({ url, body: data.text() });
        return true;
      },
    });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  function renderForm() {
    const view = render(
      <MemoryRouter>
        <BookingForm
          event={event}
          remaining={40}
          unavailable={null}
          provider="offline"
          charityName="The Kilele Trust"
        />
      </MemoryRouter>,
    );
    const field = (label: string | RegExp, value: string) =>
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    field(/^Name/, "Dr J. Smith");
    field(/^Email/, "j.smith@example.org");
    field(/^Number of tickets/, "2");
    field("Card number", "4000 0000 0000 0002");
    field("Expiration date", "12/34");
    field("Security code", "123");
    return { view, field, pay: () => fireEvent.click(screen.getByRole("button", { name: /^Pay now/ })) };
  }

  const releases = () => calls.filter((c) => c.url === releaseUrl).map((c) => c.body);

  it("when the card is refused, before the form is ready for another card", async () => {
    confirm = async () =>
      Response.json(
        { status: "requires_payment_method", error: "Your card was declined.", code: "invalid" },
        { status: 402 },
      );
    let answerRelease = () => {};
    releaseGate = new Promise((resolve) => (answerRelease = resolve));
    const form = renderForm();
    form.pay();
    await screen.findByText("Your card was declined.");
    await waitFor(() => expect(releases()).toEqual([{ clientSecret, reason: "declined" }]));
    const button = screen.getByRole("button", { name: /^Pay now/ });
    expect(button.getAttribute("aria-disabled")).toBe("true");
    answerRelease();
    await waitFor(() => expect(button.getAttribute("aria-disabled")).toBeNull());
    // Released already: leaving now sends nothing more.
    form.view.unmount();
    expect(beacons).toEqual([]);
  });

  it("when the number of tickets changes after an attempt that did not finish, and not again", async () => {
    confirm = () => Promise.reject(new TypeError("Failed to fetch"));
    const form = renderForm();
    form.pay();
    await screen.findByText(/An unexpected error occurred/);
    // Whether that payment went through is not known here: the seats wait for the visitor's next step.
    expect(releases()).toEqual([]);
    form.field(/^Number of tickets/, "3");
    form.field(/^Number of tickets/, "4");
    await waitFor(() => expect(releases()).toEqual([{ clientSecret, reason: "quantity" }]));
    expect(screen.getByRole("button", { name: /^Pay now/ }).textContent).toBe("Pay now £50.49");
  });

  it("when the visitor leaves the page, as a beacon that outlives it", async () => {
    confirm = () => Promise.reject(new TypeError("Failed to fetch"));
    const form = renderForm();
    form.pay();
    await screen.findByText(/An unexpected error occurred/);
    window.dispatchEvent(new Event("pagehide"));
    expect(beacons.map((b) => b.url)).toEqual([releaseUrl]);
    expect(JSON.parse(await beacons[0]!.body)).toEqual({ clientSecret, reason: "left" });
    // Once is enough: leaving within the site afterwards sends nothing more.
    form.view.unmount();
    expect(beacons).toHaveLength(1);
  });

  it("a new attempt names the unfinished one it replaces, with its proof", async () => {
    confirm = () => Promise.reject(new TypeError("Failed to fetch"));
    const form = renderForm();
    form.pay();
    await screen.findByText(/An unexpected error occurred/);
    form.pay();
    await waitFor(() => expect(calls.filter((c) => c.url === "/api/bookings")).toHaveLength(2));
    expect(calls.filter((c) => c.url === "/api/bookings")[1]!.body).toMatchObject({
      quantity: 2,
      replaces: { bookingRef, clientSecret },
    });
  });
});

describe("the booking form of an event sold by type", () => {
  const adult = { id: "a0000000-0000-4000-8000-00000000000a", name: "Adult", pricePence: 1250 };
  const child = { id: "c0000000-0000-4000-8000-00000000000c", name: "Child", pricePence: 500 };
  const family = { id: "f0000000-0000-4000-8000-00000000000f", name: "Family", pricePence: 3000 };
  let posted: Record<string, unknown>[];
  let answer: () => Response;

  beforeEach(() => {
    posted = [];
    answer = () => Response.json({ error: "Sorry", code: "conflict" }, { status: 409 });
    vi.stubGlobal("matchMedia", () => ({ matches: false, addEventListener() {}, removeEventListener() {} }));
    Element.prototype.scrollIntoView = () => {};
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      if (url === "/api/bookings") posted.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return answer();
    });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  function renderForm() {
    render(
      <MemoryRouter>
        <BookingForm
          event={event}
          types={[
            { ...adult, onSale: true, left: 29, words: null },
            { ...child, onSale: true, left: 3, words: "Child: 3 left" },
            { ...family, onSale: false, left: 0, words: "Family: sold out" },
          ]}
          remaining={40}
          unavailable={null}
          provider="offline"
          charityName="The Kilele Trust"
        />
      </MemoryRouter>,
    );
    const field = (label: string | RegExp, value: string) =>
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    field(/^Name/, "Dr J. Smith");
    field(/^Email/, "j.smith@example.org");
    field("Card number", "4242 4242 4242 4242");
    field("Expiration date", "12/34");
    field("Security code", "123");
    return { field, pay: () => fireEvent.click(screen.getByRole("button", { name: /^Pay now/ })) };
  }
  const overview = () => screen.getByRole("region", { name: "Booking overview" }).textContent;

  it("asks a quantity of each type on sale, by name and price, and says why the others cannot be bought", () => {
    renderForm();
    expect(screen.getByRole("group", { name: "Number of tickets (1 to 29 in all)" })).toBeTruthy();
    expect((screen.getByLabelText(/^Adult £12.50/) as HTMLInputElement).value).toBe("1");
    expect((screen.getByLabelText(/^Child £5.00/) as HTMLInputElement).value).toBe("0");
    expect(screen.getByLabelText(/^Child £5.00/).getAttribute("aria-describedby")).toContain("-hint");
    expect(screen.getByText("Child: 3 left")).toBeTruthy();
    expect(screen.queryByLabelText(/^Family/)).toBeNull();
    expect(screen.getByText("Family: sold out")).toBeTruthy();
    expect(screen.queryByLabelText(/^Number of tickets/)).toBeNull();
  });

  it("lists each type chosen, the booking fee once and the total; free tickets pay no fee", () => {
    const form = renderForm();
    form.field(/^Adult/, "2");
    form.field(/^Child/, "1");
    expect(overview()).toContain("2 × Adult £12.50£25.00");
    expect(overview()).toContain("1 × Child £5.00£5.00");
    expect(overview()).toContain("Booking fee£0.49");
    expect(overview()).toContain("Total£30.49");
    expect(screen.getByRole("button", { name: /^Pay now/ }).textContent).toBe("Pay now £30.49");
    form.field(/^Adult/, "0");
    form.field(/^Child/, "0");
    expect(overview()).toContain("None chosen yet");
    expect(overview()).toContain("Total£0.00");
  });

  it("posts the tickets by type, and shows the server's answer on the type it concerns", async () => {
    answer = () =>
      Response.json(
        {
          error: "Only 1 Child ticket left.",
          code: "conflict",
          fields: { [`tickets.${child.id}`]: "Only 1 Child ticket left." },
        },
        { status: 409 },
      );
    const form = renderForm();
    form.field(/^Adult/, "2");
    form.field(/^Child/, "1");
    form.pay();
    await screen.findByText("Only 1 Child ticket left.");
    expect(posted).toEqual([expect.objectContaining({ eventId: event.id, tickets: { [adult.id]: 2, [child.id]: 1 } })]);
    expect(posted[0]).not.toHaveProperty("quantity");
    expect(screen.getByLabelText(/^Child/).getAttribute("aria-invalid")).toBe("true");
  });

  it("checks the tickets in all and of each type before asking the server", () => {
    const form = renderForm();
    form.field(/^Adult/, "0");
    form.pay();
    expect(screen.getByText("Invalid ticket quantity: please enter a valid number between 1-29")).toBeTruthy();
    form.field(/^Adult/, "20");
    form.field(/^Child/, "10");
    form.pay();
    expect(screen.getByText("Invalid ticket quantity: please enter a valid number between 1-29")).toBeTruthy();
    form.field(/^Adult/, "1");
    form.field(/^Child/, "4");
    form.pay();
    expect(screen.getByText("Only 3 Child tickets left.")).toBeTruthy();
    expect(posted).toEqual([]);
  });
});

describe("the confirmation's address", () => {
  it("gives the price of a ticket of one type, and the average of several types' prices", () => {
    const params = (ticketsPence: number | undefined, quantity: number) =>
      new URL(
        confirmationUrl(event, { bookingRef }, { name: "Amina", email: "a@example.org", quantity, ticketsPence }),
        "http://localhost",
      ).searchParams;
    expect(params(undefined, 3).get("ticketCost")).toBe("12.50");
    expect(params(2 * 1250 + 500, 3).get("ticketCost")).toBe("10.00");
    expect(params(1250 + 2 * 500, 3).get("ticketCost")).toBe("7.50");
    expect(params(1000 + 2 * 500, 3).get("ticketCost")).toBe("6.67");
    expect(params(0, 2).get("ticketCost")).toBe("0.00");
    expect(params(2 * 1250 + 500, 3).get("ticketQuantity")).toBe("3");
  });
});

describe("the booking form's errors", () => {
  const meal = "9e000000-0000-4000-8000-00000000000e";
  const diet = "d1000000-0000-4000-8000-0000000000d1";
  let answer: () => Response;

  beforeEach(() => {
    vi.stubGlobal("matchMedia", () => ({ matches: false, addEventListener() {}, removeEventListener() {} }));
    Element.prototype.scrollIntoView = () => {};
    vi.stubGlobal("fetch", async () => answer());
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  function renderForm() {
    render(
      <MemoryRouter>
        <BookingForm
          event={{
            ...event,
            questions: {
              questions: [
                {
                  id: meal,
                  question: "Meal",
                  answerType: "choice",
                  choices: ["Beef", "Fish"],
                  required: true,
                  perAttendee: false,
                },
                {
                  id: diet,
                  question: "Dietary needs",
                  answerType: "text",
                  choices: [],
                  required: true,
                  perAttendee: true,
                },
              ],
              seatsByType: {},
              oneTypeSeats: 1,
            },
          }}
          remaining={40}
          unavailable={null}
          provider="offline"
          charityName="The Kilele Trust"
        />
      </MemoryRouter>,
    );
    const field = (label: string | RegExp, value: string) =>
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    field(/^Name/, "Dr J. Smith");
    field(/^Email/, "j.smith@example.org");
    field(/^Number of tickets/, "2");
    field("Card number", "4242 4242 4242 4242");
    field("Expiration date", "12/34");
    field("Security code", "123");
    return { pay: () => fireEvent.click(screen.getByRole("button", { name: /^Pay now/ })) };
  }

  it("answers refused by the server make one summary, linking to each question, and no other", async () => {
    answer = () =>
      Response.json(
        {
          error: "Please answer the questions marked below.",
          code: "invalid",
          fields: {
            [`answers.${meal}`]: "Please answer this question.",
            [`answers.${diet}.2`]: "Please answer this question.",
          },
        },
        { status: 400 },
      );
    renderForm().pay();
    const summary = await screen.findByRole("alert");
    expect(screen.getAllByRole("alert")).toHaveLength(1);
    expect(summary.textContent).toContain("Please answer the questions marked below.");
    expect(screen.queryByText(/^Invalid ticket information/)).toBeNull();
    const links = [...summary.querySelectorAll("a")].map((link) => [link.textContent, link.getAttribute("href")]);
    expect(links).toEqual([
      ["Meal", `#answer-${meal}-0`],
      ["Dietary needs (Attendee 2)", `#answer-${diet}-2`],
    ]);
    for (const [, href] of links) expect(document.querySelector(href!)).not.toBeNull();
    expect(screen.getByLabelText("Meal").getAttribute("aria-invalid")).toBe("true");
  });

  it("the buyer's fields and the answers refused at once: the form's summary, linking to each", async () => {
    answer = () =>
      Response.json(
        {
          error: "Invalid ticket information: Please provide a valid name, email address and ticket quantity.",
          code: "invalid",
          fields: {
            email: "Invalid email: please enter a valid email address.",
            [`answers.${meal}`]: "Please answer this question.",
          },
        },
        { status: 400 },
      );
    renderForm().pay();
    const summary = await screen.findByRole("alert");
    expect(screen.getAllByRole("alert")).toHaveLength(1);
    expect(summary.textContent).toContain("Invalid ticket information");
    expect([...summary.querySelectorAll("a")].map((link) => link.getAttribute("href"))).toEqual([
      "#ticket-email",
      `#answer-${meal}-0`,
    ]);
  });
});
