import { describe, expect, it } from "vitest";
import { parseConfig } from "../config.server";
import { publicOrigin } from "./public-origin.server";

describe("the site's public address", () => {
  const request = new Request("http://192.168.1.20:3000/fundraising?x=1");

  it("is PUBLIC_URL when set, without a trailing slash", () => {
    expect(publicOrigin(parseConfig({ PUBLIC_URL: "https://www.kilele.example/" }), request)).toBe(
      "https://www.kilele.example",
    );
  });

  it("is the address the page was asked at when PUBLIC_URL is not set (the embedded default)", () => {
    expect(publicOrigin(parseConfig({}), request)).toBe("http://192.168.1.20:3000");
  });
});
