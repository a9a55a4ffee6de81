// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { FormResult } from "~/lib/forms";
import { volunteerReplies } from "../schema";
import { VolunteerForm } from "./volunteer-form";

beforeAll(() => {
  // jsdom has <dialog> but not its modal methods.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false;
  };
});

/** The form on a page whose action answers as the server would, recording what it was sent. */
function renderForm(answer: (form: FormData) => FormResult) {
  const sent: FormData[] = [];
  const router = createMemoryRouter(
    [
      {
        path: "/volunteering",
        Component: () => <VolunteerForm />,
        action: async ({ request }) => {
          const form = await request.formData();
          sent.push(form);
          return answer(form);
        },
      },
    ],
    { initialEntries: ["/volunteering"] },
  );
  render(<RouterProvider router={router} />);
  return sent;
}

const thanked: FormResult = { ok: true, intent: "", message: volunteerReplies.thanks };

const field = (name: RegExp) => screen.getByLabelText(name) as HTMLInputElement;

function fillIn(values: { name: string; email: string; reason: string }) {
  fireEvent.change(field(/^NAME/), { target: { value: values.name } });
  fireEvent.change(field(/^EMAIL/), { target: { value: values.email } });
  fireEvent.change(field(/^REASON/), { target: { value: values.reason } });
}

describe("the volunteering form", () => {
  afterEach(cleanup);

  it("checks the fields before sending, with the specification's messages, and sends nothing", async () => {
    const sent = renderForm(() => thanked);
    fillIn({ name: " ", email: "nope", reason: "" });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByText("Name must not be left blank.")).toBeTruthy();
    expect(screen.getByText("Invalid email.")).toBeTruthy();
    expect(screen.getByText("Reason for signing up must not be left blank.")).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it("sends a good sign-up to the page's action, thanks the visitor and clears the fields", async () => {
    const sent = renderForm(() => thanked);
    fillIn({ name: "Grace Kimaro", email: "grace@example.org", reason: "To help at the quiz." });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByText(volunteerReplies.thanks)).toBeTruthy();
    expect(sent.map((form) => form.get("email"))).toEqual(["grace@example.org"]);
    expect(field(/^NAME/).value).toBe("");
    expect(field(/^REASON/).value).toBe("");
  });

  it("shows the server's field messages when it refuses, and keeps what was typed", async () => {
    renderForm(() => ({
      ok: false,
      intent: "",
      message: volunteerReplies.invalid,
      fields: { email: "Invalid email." },
      code: "invalid",
    }));
    fillIn({ name: "Grace Kimaro", email: "grace@example.org", reason: "To help." });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByText("Invalid email.")).toBeTruthy();
    expect(field(/^NAME/).value).toBe("Grace Kimaro");
  });
});
