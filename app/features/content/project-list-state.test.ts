import { describe, expect, it } from "vitest";
import { nextVisibleCount, projectListButton } from "./project-list-state";

describe("a project list", () => {
  it("offers no button with four projects or fewer", () => {
    expect(projectListButton(4, 4)).toBeNull();
    expect(projectListButton(3, 3)).toBeNull();
  });
  it("shows three more each time Show more is pressed, until all show", () => {
    expect(projectListButton(4, 11)).toBe("show-more");
    expect(nextVisibleCount(4, 11, "show-more")).toBe(7);
    expect(nextVisibleCount(7, 11, "show-more")).toBe(10);
    expect(nextVisibleCount(10, 11, "show-more")).toBe(11);
  });
  it("offers Hide projects once all show, which goes back to four", () => {
    expect(projectListButton(8, 8)).toBe("hide");
    expect(nextVisibleCount(8, 8, "hide")).toBe(4);
  });
  it("walks 4 → 7 → 8 → 4 with eight projects", () => {
    let visible = 4;
    const seen = [visible];
    for (let i = 0; i < 3; i++) {
      const action = projectListButton(visible, 8);
      if (!action) break;
      visible = nextVisibleCount(visible, 8, action);
      seen.push(visible);
    }
    expect(seen).toEqual([4, 7, 8, 4]);
  });
});
