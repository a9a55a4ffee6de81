// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { createMemoryRouter, data, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ErrorPage } from "~/components/layout/error-page";
import { AppError } from "~/lib/errors";
import { pageWork } from "./page.server";

// A page whose loader fails inside, rendered as React Router renders it, with the site's error page.
function renderPage(loader: (args: never) => Promise<unknown>) {
  const router = createMemoryRouter(
    [
      {
        path: "/",
        loader: loader as () => Promise<unknown>,
        Component: () => <p>The page</p>,
        ErrorBoundary: ErrorPage,
      },
    ],
    { initialEntries: ["/"] },
  );
  return render(<RouterProvider router={router} />);
}

describe("a page whose work fails", () => {
  let logged: string[];
  beforeEach(() => {
    logged = [];
    vi.spyOn(console, "error").mockImplementation((...args) => void logged.push(args.map(String).join(" ")));
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it("shows an apology with the reference it was logged under, never the error's text", async () => {
    renderPage(
      pageWork("The booking page", async () => {
        throw new Error('relation "events" does not exist (password=hunter2)');
      }),
    );
    expect(await screen.findByRole("heading", { name: "Something went wrong" })).toBeTruthy();
    const text = document.body.textContent ?? "";
    expect(text).not.toContain("relation");
    expect(text).not.toContain("hunter2");
    const ref = /reference ([0-9A-F]{8})/.exec(text)?.[1];
    expect(ref).toBeDefined();
    // The log has the error whole, as one JSON line under the same reference (decision 024).
    const lines = logged.map((line) => JSON.parse(line) as { level: string; ref: string; where: string });
    const line = lines.find((entry) => entry.ref === ref);
    expect(line).toMatchObject({ level: "error", where: "The booking page" });
    expect(JSON.stringify(line)).toContain("hunter2");
  });

  it("shows the 404 page for something that is not there", async () => {
    renderPage(
      pageWork("A project page", async () => {
        throw new AppError("not-found", "There is no such project.");
      }),
    );
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeTruthy();
    expect(logged.filter((line) => line.startsWith("["))).toEqual([]);
  });

  it("shows a refusal's own message, written for the visitor", async () => {
    renderPage(
      pageWork("Signing staff out", async () => {
        throw new AppError("forbidden", "This form can only be sent from this site's own pages.");
      }),
    );
    expect(await screen.findByText("This form can only be sent from this site's own pages.")).toBeTruthy();
    expect(logged.filter((line) => line.startsWith("["))).toEqual([]);
  });

  it("shows a form refused as too large before the site saw it: with JavaScript, its message alone (server/requests.ts)", async () => {
    renderPage(async () => {
      throw data("The form is too large to send at once (at most 64 MB): please upload fewer pictures at a time.", {
        status: 413,
      });
    });
    expect(await screen.findByRole("heading", { name: "Not possible" })).toBeTruthy();
    expect(
      screen.getByText(
        "The form is too large to send at once (at most 64 MB): please upload fewer pictures at a time.",
      ),
    ).toBeTruthy();
  });

  it("lets what the page returns through", async () => {
    renderPage(pageWork("The home page", async () => ({ ok: true })));
    expect(await screen.findByText("The page")).toBeTruthy();
  });
});
