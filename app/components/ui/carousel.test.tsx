// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Carousel } from "./carousel";

const images = [
  { src: "wheel/one", alt: "Children at the new borehole" },
  { src: "wheel/two", alt: "The school's first library" },
  { src: "wheel/three", alt: "Tailors at their machines" },
];

/** The browser's answer to prefers-reduced-motion, as the visitor set it. */
function prefersReducedMotion(reduce: boolean) {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: reduce && query.includes("reduce"),
    media: query,
    addEventListener() {},
    removeEventListener() {},
  }));
}

const shownAlt = () =>
  screen
    .getAllByRole("group", { hidden: true })
    .filter((slide) => !slide.hidden)
    .map((slide) => slide.querySelector("img")?.getAttribute("alt"));

describe("the image wheel", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("shows one slide at a time, and the arrows move it, wrapping at both ends", () => {
    prefersReducedMotion(true);
    render(<Carousel label="Life in Kilele" images={images} />);
    expect(screen.getByRole("region", { name: "Life in Kilele" })).toBeTruthy();
    expect(shownAlt()).toEqual(["Children at the new borehole"]);
    fireEvent.click(screen.getByRole("button", { name: "Previous slide" }));
    expect(shownAlt()).toEqual(["Tailors at their machines"]);
    fireEvent.click(screen.getByRole("button", { name: "Next slide" }));
    fireEvent.click(screen.getByRole("button", { name: "Next slide" }));
    expect(shownAlt()).toEqual(["The school's first library"]);
  });

  it("an indicator shows its slide and is marked as the current one", () => {
    prefersReducedMotion(true);
    render(<Carousel label="Life in Kilele" images={images} />);
    fireEvent.click(screen.getByRole("button", { name: "Show slide 3" }));
    expect(shownAlt()).toEqual(["Tailors at their machines"]);
    expect(screen.getByRole("button", { name: "Show slide 3" }).getAttribute("aria-current")).toBe("true");
    expect(screen.getByRole("button", { name: "Show slide 1" }).getAttribute("aria-current")).toBeNull();
    // Moved by the visitor, the change is announced.
    expect(document.querySelector(".carousel-slides")!.getAttribute("aria-live")).toBe("polite");
  });

  it("turns every delay seconds on its own, and holds still once paused", () => {
    prefersReducedMotion(false);
    render(<Carousel label="Life in Kilele" images={images} delay={5} />);
    act(() => vi.advanceTimersByTime(4_999));
    expect(shownAlt()).toEqual(["Children at the new borehole"]);
    act(() => vi.advanceTimersByTime(1));
    expect(shownAlt()).toEqual(["The school's first library"]);
    fireEvent.click(screen.getByRole("button", { name: "Pause the slideshow" }));
    act(() => vi.advanceTimersByTime(20_000));
    expect(shownAlt()).toEqual(["The school's first library"]);
    expect(screen.getByRole("button", { name: "Play the slideshow" })).toBeTruthy();
  });

  it("never turns on its own when the visitor asks for less motion", () => {
    prefersReducedMotion(true);
    render(<Carousel label="Life in Kilele" images={images} delay={1} />);
    act(() => vi.advanceTimersByTime(10_000));
    expect(shownAlt()).toEqual(["Children at the new borehole"]);
  });

  it("has no controls for a single picture", () => {
    prefersReducedMotion(false);
    render(<Carousel label="Life in Kilele" images={images.slice(0, 1)} />);
    expect(screen.queryByRole("button")).toBeNull();
  });
});
