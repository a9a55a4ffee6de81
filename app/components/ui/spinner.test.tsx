// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { BusyButton } from "./spinner";

describe("a busy button", () => {
  afterEach(cleanup);

  it("is named by its label until its form is sent, then says what is happening and is busy", () => {
    const { rerender } = render(
      <BusyButton busy={false} busyLabel="Saving…">
        Save the buyer's details
      </BusyButton>,
    );
    const button = screen.getByRole("button", { name: "Save the buyer's details" });
    expect(button).toHaveProperty("type", "submit");
    expect(button.getAttribute("aria-busy")).toBe("false");

    rerender(
      <BusyButton busy busyLabel="Saving…">
        Save the buyer's details
      </BusyButton>,
    );
    expect(screen.getByRole("button", { name: "Saving…" }).getAttribute("aria-busy")).toBe("true");
    expect(screen.queryByRole("button", { name: "Save the buyer's details" })).toBeNull();
  });
});
