// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { Field, FieldGroup } from "./field";
import { FormNotice } from "./form-notice";

/** The texts an element is described by, in order, as a screen reader reads them after its name. */
function description(element: HTMLElement) {
  return (element.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent);
}

describe("a field", () => {
  afterEach(cleanup);

  it("is named by its label, and described by its hint", () => {
    render(
      <Field id="invite-email" label="Email" hint="Their own address." input={{ name: "email", type: "email" }} />,
    );
    const input = screen.getByRole("textbox", { name: "Email" });
    expect(input.getAttribute("name")).toBe("email");
    expect(input.getAttribute("aria-invalid")).toBeNull();
    expect(description(input)).toEqual(["Their own address."]);
  });

  it("with a message, is marked invalid and described by its hint, then its message", () => {
    render(
      <Field
        id="refund-quantity"
        label="Tickets to refund"
        hint="Up to 3 tickets can be refunded."
        error="Enter a number from 1 to 3."
        input={{ name: "quantity", defaultValue: "7" }}
      />,
    );
    const input = screen.getByRole("textbox", { name: "Tickets to refund" });
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(description(input)).toEqual(["Up to 3 tickets can be refunded.", "Enter a number from 1 to 3."]);
    expect(screen.getByText("Enter a number from 1 to 3.").id).toBe("refund-quantity-error");
  });

  it("keeps a description of the control's own after its hint and message", () => {
    render(
      <Field
        id="gift-aid"
        label="Yes, I want to Gift Aid my donation"
        error="Tick the box."
        input={{ type: "checkbox", name: "giftAid", "aria-describedby": "declaration" }}
        aside={<p id="declaration">I am a UK taxpayer.</p>}
      />,
    );
    const box = screen.getByRole("checkbox", { name: "Yes, I want to Gift Aid my donation" });
    expect(description(box)).toEqual(["Tick the box.", "I am a UK taxpayer."]);
  });

  it("draws a textarea, a select, or a control of the caller's with the same label and description", () => {
    render(
      <>
        <Field id="reason" label="Reason" error="Say why." textarea={{ name: "reason", rows: 3 }} />
        <Field id="kind" label="Kind" hint="What kind of video." select={{ name: "kind", defaultValue: "youtube" }}>
          <option value="own">Our own</option>
          <option value="youtube">YouTube</option>
        </Field>
        <Field
          id="person-email"
          label="Email address"
          error="Enter an e-mail address."
          control={(props) => (
            <div className="person-search-row">
              <input {...props} name="email" />
              <button type="submit">Find their data</button>
            </div>
          )}
        />
      </>,
    );
    expect(description(screen.getByRole("textbox", { name: "Reason" }))).toEqual(["Say why."]);
    expect(screen.getByRole("textbox", { name: "Reason" }).getAttribute("aria-invalid")).toBe("true");
    const kind = screen.getByRole("combobox", { name: "Kind" }) as HTMLSelectElement;
    expect(kind.value).toBe("youtube");
    expect(description(kind)).toEqual(["What kind of video."]);
    const email = screen.getByRole("textbox", { name: "Email address" });
    expect(email.getAttribute("aria-invalid")).toBe("true");
    expect(description(email)).toEqual(["Enter an e-mail address."]);
  });

  it("holds a value the page keeps, and takes up what was typed before the scripts ran", () => {
    function Held() {
      const [name, setName] = useState("");
      return (
        <>
          <Field id="ticket-name" label="Name" input={{ name: "name", value: name }} onValue={setName} />
          <output>{name}</output>
        </>
      );
    }
    // The server's page, typed into before the scripts ran: the field has text its state does not.
    const container = document.body.appendChild(document.createElement("div"));
    container.innerHTML = renderToString(<Held />);
    container.querySelector("input")!.value = "Amina";
    render(<Held />, { container, hydrate: true });
    expect(container.querySelector("output")?.textContent).toBe("Amina");
    fireEvent.change(screen.getByRole("textbox", { name: "Name" }), { target: { value: "Amina Mushi" } });
    expect(container.querySelector("output")?.textContent).toBe("Amina Mushi");
  });

  it("groups fields under a legend, described by the group's hint and message", () => {
    render(
      <FieldGroup id="office-mode" legend="Office e-mails" hint="How the office is told." error="Choose one.">
        <input type="radio" id="each" name="mode" value="each" />
        <label htmlFor="each">Each one</label>
      </FieldGroup>,
    );
    const group = screen.getByRole("group", { name: "Office e-mails" });
    expect(description(group)).toEqual(["How the office is told.", "Choose one."]);
  });
});

describe("a form's notice", () => {
  afterEach(cleanup);

  it("announces what was done politely, and a refusal at once", () => {
    render(
      <>
        <FormNotice ok>The seat limits are saved.</FormNotice>
        <FormNotice ok={false}>That member of staff was already removed.</FormNotice>
      </>,
    );
    expect(screen.getByRole("status").textContent).toBe("The seat limits are saved.");
    expect(screen.getByRole("alert").textContent).toBe("That member of staff was already removed.");
  });

  it("lists what to correct after its message", () => {
    render(
      <FormNotice
        ok={false}
        details={
          <ul>
            <li>Title must not be left empty.</li>
          </ul>
        }
      >
        Nothing was published: please correct these fields.
      </FormNotice>,
    );
    const alert = screen.getByRole("alert");
    expect(alert.querySelector("p")?.textContent).toBe("Nothing was published: please correct these fields.");
    expect(screen.getByRole("listitem").textContent).toBe("Title must not be left empty.");
  });
});
