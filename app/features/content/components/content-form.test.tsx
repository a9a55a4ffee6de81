// @vitest-environment jsdom
import fs from "node:fs";
import path from "node:path";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { bodyLimits } from "~/infra/http/body-limits.server";
import type { FieldErrors } from "~/lib/errors";
import { contentFields } from "../editor/field-tree";
import { readContentForm } from "../editor/form-values";
import { contentFiles, type ContentName } from "../schema";
import { ContentForm } from "./content-form";

const names = Object.keys(contentFiles) as ContentName[];
const fileContent = (name: ContentName) =>
  JSON.parse(fs.readFileSync(path.join("content", name, "content.json"), "utf8")) as Record<string, unknown>;

function renderForm(name: ContentName, value: unknown, issues?: FieldErrors) {
  const router = createMemoryRouter([
    {
      path: "/",
      Component: () => (
        <ContentForm
          fields={contentFields(name)}
          value={value}
          issues={issues}
          pictures={[{ src: "pages/quiz-night", label: "pages/quiz-night" }]}
        >
          <button type="submit" name="intent" value="publish">
            Publish
          </button>
        </ContentForm>
      ),
    },
  ]);
  const view = render(<RouterProvider router={router} />);
  const form = () => view.container.querySelector("form")!;
  return { view, form, posted: () => readContentForm(contentFields(name), new FormData(form())) };
}

describe("the page editor's form", () => {
  afterEach(cleanup);

  it.each(names)("posts %s back exactly as it was drawn", (name) => {
    const content = fileContent(name);
    const { posted } = renderForm(name, content);
    const read = posted();
    expect(read.problems).toEqual({});
    const schema = contentFiles[name].schema;
    expect(schema.parse(read.value)).toEqual(schema.parse(content));
  });

  it("draws each project closed under its name, and open where a message is about one of its fields", () => {
    const home = fileContent("home") as { activeProjects: { title: string }[] };
    const { form, posted } = renderForm("home", home, { "activeProjects.1.title": "must not be left empty" });
    const projects = [...form().querySelectorAll<HTMLDetailsElement>("#field-activeProjects details")];
    expect(projects).toHaveLength(home.activeProjects.length);
    expect(projects[0]!.querySelector("summary")!.textContent).toBe(`Project 1: ${home.activeProjects[0]!.title}`);
    expect(projects.map((p) => p.open)).toEqual(home.activeProjects.map((_, i) => i === 1));
    // A closed project's fields still go with the form.
    expect((posted().value.activeProjects as unknown[]).length).toBe(home.activeProjects.length);
  });

  it("posts the whole home page, every project with its gallery, within the staff body limit", async () => {
    const { form } = renderForm("home", fileContent("home"));
    const post = new globalThis.FormData();
    for (const [key, value] of new FormData(form())) if (typeof value === "string") post.append(key, value);
    const bytes = (await new Response(post).arrayBuffer()).byteLength;
    // Multipart, as the form posts; with room for the charity to add several times as much.
    expect(bytes).toBeLessThan(bodyLimits.staff / 2);
  });

  it("labels every input from the schema, a long text as a text area, and a project's address read-only", () => {
    renderForm("volunteering", fileContent("volunteering"));
    const heading = screen.getByLabelText("Heading above the sign-up form") as HTMLInputElement;
    expect(heading.value).toBe("Join us in 2025");
    expect(heading.getAttribute("name")).toBe("formTitle");
    expect(screen.getByText("Such as Join us in 2025.").id).toBe(heading.getAttribute("aria-describedby"));
    expect(screen.getByLabelText("First column").tagName).toBe("TEXTAREA");
    cleanup();

    // The home page is large: found by id rather than by role, which jsdom computes slowly.
    renderForm("home", fileContent("home"));
    const byId = (id: string) => document.getElementById(id)!;
    expect(document.querySelector('a[href="/project/clean-water-borehole"]')?.textContent).toBe(
      "/project/clean-water-borehole",
    );
    expect(document.querySelector<HTMLInputElement>('[name="activeProjects.0.slug"]')!.type).toBe("hidden");
    const coming = byId("field-activeProjects-0-comingSoon") as HTMLInputElement;
    expect(coming.type).toBe("checkbox");
    expect(document.querySelector('label[for="field-activeProjects-0-comingSoon"]')?.textContent).toBe("Coming soon");
    expect(byId("field-activeProjects-0-imageBanner").querySelector("legend")?.textContent).toBe("Banner picture");
  });

  it("shows each message beside its field and lists them at the top, linked to the fields", () => {
    renderForm(
      "volunteering",
      { ...fileContent("volunteering"), formTitle: "" },
      {
        formTitle: "must not be left empty",
        "image.alt": "Describe the picture for people who cannot see it.",
      },
    );
    const heading = screen.getByLabelText("Heading above the sign-up form");
    expect(heading.getAttribute("aria-invalid")).toBe("true");
    const described = heading.getAttribute("aria-describedby")!.split(" ");
    const error = described.map((id) => document.getElementById(id)!).find((el) => el.className === "field-error");
    expect(error?.textContent).toBe("Heading above the sign-up form must not be left empty.");
    const summary = screen.getByRole("alert");
    const links = within(summary).getAllByRole("link");
    expect(links.map((link) => link.getAttribute("href"))).toEqual(["#field-formTitle", "#field-image-alt"]);
    expect(links[0]!.textContent).toBe("Heading above the sign-up form must not be left empty.");
    expect(document.querySelector(links[0]!.getAttribute("href")!)).toBe(heading);
    expect(links[1]!.textContent).toBe("Header picture › Alt text: Describe the picture for people who cannot see it.");
  });

  it("moves a team member down, keeping what was typed, and keeps the focus on the moved member's button", () => {
    const about = fileContent("about");
    const team = (about.team as { name: string }[]).map((m) => m.name);
    const { posted } = renderForm("about", about);
    // Typed before moving: kept with its member.
    fireEvent.change(screen.getByDisplayValue(team[0]!), { target: { value: "Ruth A." } });
    fireEvent.click(screen.getByRole("button", { name: `Move down Team member 1: ${team[0]}` }));
    const names = (posted().value.team as { name: string }[]).map((m) => m.name);
    expect(names.slice(0, 2)).toEqual([team[1], "Ruth A."]);
    expect((document.activeElement as HTMLButtonElement).textContent).toContain("Move down");
    expect(document.activeElement?.id).toBe("field-team-1-_down");
  });

  it("adds a trustee with empty fields, focused on the first, and removes one", () => {
    const about = fileContent("about");
    const trustees = (about.trustees as unknown[]).length;
    const { posted } = renderForm("about", about);
    fireEvent.click(screen.getByRole("button", { name: "Add trustee to Trustees" }));
    expect((posted().value.trustees as unknown[]).length).toBe(trustees + 1);
    expect(document.activeElement?.getAttribute("name")).toBe(`trustees.${trustees}.name`);
    fireEvent.click(screen.getAllByRole("button", { name: /^Remove Trustee 1/ })[0]!);
    expect((posted().value.trustees as unknown[]).length).toBe(trustees);
  });

  it("adds a project's testimonial and moves a project to the previous ones", () => {
    const home = fileContent("home");
    const active = home.activeProjects as { title: string; testimonial?: unknown }[];
    const without = active.findIndex((p) => !p.testimonial);
    const { posted } = renderForm("home", home);
    const button = (value: string) => document.querySelector<HTMLButtonElement>(`button[value="${value}"]`)!;
    if (without >= 0) {
      expect(button(`include activeProjects.${without}.testimonial`).textContent).toBe("Add testimonial");
      fireEvent.click(button(`include activeProjects.${without}.testimonial`));
      expect((posted().value.activeProjects as Record<string, unknown>[])[without]!.testimonial).toMatchObject({
        name: "",
      });
    }
    const move = button("move activeProjects.0 previousProjects");
    expect(move.textContent).toBe(`Move to previous projects: Project 1: ${active[0]!.title}`);
    fireEvent.click(move);
    const value = posted().value;
    expect((value.previousProjects as { title: string }[]).at(-1)!.title).toBe(active[0]!.title);
    expect((value.activeProjects as unknown[]).length).toBe(active.length - 1);
  });

  it("without JavaScript, each list button is a submit button naming what it does", () => {
    renderForm("payment", fileContent("payment"));
    const add = screen.getByRole("button", { name: "Add amount (£) to Amounts offered" }) as HTMLButtonElement;
    expect([add.type, add.name, add.value]).toEqual(["submit", "intent", "add presetAmounts"]);
    const up = screen.getByRole("button", { name: "Move up Amount (£) 2" }) as HTMLButtonElement;
    expect(up.value).toBe("up presetAmounts.1");
  });
});
