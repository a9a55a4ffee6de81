// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter, Form, RouterProvider, useActionData } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { Field } from "~/components/ui/field";
import { FormNotice } from "~/components/ui/form-notice";
import { AppError } from "~/lib/errors";
import type { FormResult } from "~/lib/forms";
import { answerForm, formText } from "./form-action.server";

// A staff page's form as a member of staff meets it: sent, answered by answerForm, and drawn again
// with <FormNotice> and <Field>, as React Router runs a page's action.

function InvitePage() {
  const answer = useActionData<FormResult>();
  return (
    <Form method="post" noValidate>
      <input type="hidden" name="intent" value="invite" />
      {answer && !answer.fields ? <FormNotice ok={answer.ok}>{answer.message}</FormNotice> : null}
      <Field
        id="invite-email"
        label="Email"
        input={{ name: "email", type: "email", defaultValue: answer?.values?.email ?? "" }}
        error={answer?.fields?.email}
      />
      <button type="submit">Add a member</button>
    </Form>
  );
}

function renderPage() {
  const invited: string[] = [];
  const router = createMemoryRouter(
    [
      {
        path: "/admin/staff",
        Component: InvitePage,
        action: ({ request }) =>
          answerForm(request, {
            invite: async (form) => {
              const email = formText(form, "email");
              if (!email.includes("@"))
                throw new AppError("invalid", "Check the address.", { fields: { email: "Enter an e-mail address." } });
              if (invited.includes(email)) throw new AppError("conflict", `${email} is already a member.`);
              invited.push(email);
              return { message: `An invitation was sent to ${email}.` };
            },
          }),
      },
    ],
    { initialEntries: ["/admin/staff"] },
  );
  render(<RouterProvider router={router} />);
  return invited;
}

const email = () => screen.getByRole("textbox", { name: "Email" });

describe("a page's form, answered", () => {
  afterEach(cleanup);

  it("says beside the field what is wrong, keeps what was typed, and changes nothing", async () => {
    const invited = renderPage();
    fireEvent.change(email(), { target: { value: "ann.example.org" } });
    fireEvent.click(screen.getByRole("button", { name: "Add a member" }));
    expect(await screen.findByText("Enter an e-mail address.")).toBeTruthy();
    expect(email().getAttribute("aria-invalid")).toBe("true");
    expect(email().getAttribute("aria-describedby")).toBe("invite-email-error");
    expect((email() as HTMLInputElement).value).toBe("ann.example.org");
    expect(invited).toEqual([]);
  });

  it("announces what was done, and a refusal at once", async () => {
    const invited = renderPage();
    fireEvent.change(email(), { target: { value: "ann@example.org" } });
    fireEvent.click(screen.getByRole("button", { name: "Add a member" }));
    expect((await screen.findByRole("status")).textContent).toBe("An invitation was sent to ann@example.org.");
    fireEvent.click(screen.getByRole("button", { name: "Add a member" }));
    expect((await screen.findByRole("alert")).textContent).toBe("ann@example.org is already a member.");
    expect(invited).toEqual(["ann@example.org"]);
  });
});
