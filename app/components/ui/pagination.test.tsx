// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { Pagination } from "./pagination";
import { useQuery } from "./use-query";

/** A staff list as the admin pages draw it: its pages' links from the address's own query. */
function List() {
  const search = useQuery();
  const page = Number(search.get("page") ?? "1");
  return <Pagination page={page} pages={3} total={120} search={search} label="Pages of donations" />;
}

function renderAt(url: string) {
  const router = createMemoryRouter([{ path: "/admin/donations", Component: List }], { initialEntries: [url] });
  render(<RouterProvider router={router} />);
  return router;
}

const href = (name: string) => screen.getByRole("link", { name }).getAttribute("href");

describe("a list's pages", () => {
  afterEach(cleanup);

  it("keep the address's filters on Previous and Next, and only the page changes", () => {
    renderAt("/admin/donations?month=2026-03&kind=gift-aid&page=2");
    expect(screen.getByText("Page 2 of 3 (120 in all)")).toBeTruthy();
    expect(href("Previous")).toBe("/admin/donations?month=2026-03&kind=gift-aid");
    expect(href("Next")).toBe("/admin/donations?month=2026-03&kind=gift-aid&page=3");
  });

  it("follow the address when it changes without the page loading again", async () => {
    const router = renderAt("/admin/donations?month=2026-03");
    expect(screen.queryByRole("link", { name: "Previous" })).toBeNull();
    await act(() => router.navigate("/admin/donations?month=2026-04&page=3"));
    expect(screen.getByText("Page 3 of 3 (120 in all)")).toBeTruthy();
    expect(href("Previous")).toBe("/admin/donations?month=2026-04&page=2");
    expect(screen.queryByRole("link", { name: "Next" })).toBeNull();
  });
});
