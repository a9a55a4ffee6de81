// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BookingForm } from "./booking-form";

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
        <BookingForm event={event} remaining={40} unavailable={null} provider="offline" />
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
