// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import type { Project } from "../schema";
import { ProjectList } from "./project-list";

const project = (n: number, comingSoon = false): Project => ({
  slug: `project-${n}`,
  title: `Project ${n}`,
  imagePreview: { src: `projects/p${n}`, alt: `Picture of project ${n}` },
  imageBanner: { src: `projects/p${n}`, alt: `Banner of project ${n}` },
  info: `What project ${n} does.`,
  col1Text: "One.",
  col2Text: "Two.",
  comingSoon,
  galleryImages: [],
});

function renderList(projects: Project[]) {
  const router = createMemoryRouter([
    { path: "/", Component: () => <ProjectList id="active-projects" title="Active projects" projects={projects} /> },
  ]);
  return render(<RouterProvider router={router} />);
}

/** The project links a visitor can see (hidden list items are not in the accessibility tree). */
const visibleTitles = () => screen.queryAllByRole("link").map((link) => link.textContent);

describe("a list of projects", () => {
  afterEach(cleanup);

  it("shows four at first, Show more adds three, and Hide projects goes back to four", () => {
    renderList(Array.from({ length: 9 }, (_, i) => project(i + 1)));
    expect(screen.getByRole("heading", { name: "Active projects" })).toBeTruthy();
    expect(visibleTitles()).toEqual(["Project 1", "Project 2", "Project 3", "Project 4"]);
    fireEvent.click(screen.getByRole("button", { name: "Show more" }));
    expect(visibleTitles()).toHaveLength(7);
    fireEvent.click(screen.getByRole("button", { name: "Show more" }));
    expect(visibleTitles()).toHaveLength(9);
    const hide = screen.getByRole("button", { name: "Hide projects" });
    expect(hide.getAttribute("aria-expanded")).toBe("true");
    fireEvent.click(hide);
    expect(visibleTitles()).toHaveLength(4);
  });

  it("has no button for four or fewer", () => {
    renderList([project(1), project(2), project(3), project(4)]);
    expect(screen.queryByRole("button")).toBeNull();
    expect(visibleTitles()).toHaveLength(4);
  });

  it("links each project to its own address, with its picture described", () => {
    renderList([project(1), project(2, true)]);
    expect(screen.getByRole("link", { name: "Project 2" }).getAttribute("href")).toBe("/project/project-2");
    expect(screen.getByAltText("Picture of project 1")).toBeTruthy();
    expect(screen.getAllByText("Coming Soon")).toHaveLength(1);
  });
});
