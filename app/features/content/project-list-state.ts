/**
 * How many projects a list shows at first, and how many more each Show more adds
 * (docs/specification.md, section 9).
 */
export const initialProjectCount = 4;
export const projectStep = 3;

export type ProjectListAction = "show-more" | "hide";

/** Which button a list of `total` projects showing `visible` offers, if any. */
export function projectListButton(visible: number, total: number): ProjectListAction | null {
  if (total <= initialProjectCount) return null;
  return visible < total ? "show-more" : "hide";
}

/** How many projects show after the visitor presses the list's button. */
export function nextVisibleCount(visible: number, total: number, action: ProjectListAction): number {
  if (action === "hide") return Math.min(initialProjectCount, total);
  return Math.min(visible + projectStep, total);
}
