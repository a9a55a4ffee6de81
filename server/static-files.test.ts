import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staticFiles } from "./static-files";

// The production build's static files at their known addresses; everything else reaches the site
// without the disk being asked (decision 033).
let root: string;
let url: string;
let close: () => void;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "kilele-static-"));
  fs.mkdirSync(path.join(root, "assets"));
  fs.writeFileSync(path.join(root, "assets", "entry-abc123.js"), "console.log(1);\n");
  fs.mkdirSync(path.join(root, "images"));
  fs.writeFileSync(path.join(root, "images", "logo-480.webp"), "webp");
  fs.writeFileSync(path.join(root, "favicon.svg"), "<svg/>");
  fs.writeFileSync(path.join(root, "door-sw.js"), "self;");
  const app = express();
  app.use(staticFiles(root));
  app.use((req, res) => void res.status(200).send(`the site answered ${req.path}`));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});

afterAll(() => {
  close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("static files", () => {
  it("serves hashed assets for a year, immutable", async () => {
    const response = await fetch(`${url}/assets/entry-abc123.js`);
    expect(await response.text()).toBe("console.log(1);\n");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("serves other folders and top-level files for a day; the door's service worker always fresh", async () => {
    const picture = await fetch(`${url}/images/logo-480.webp`);
    expect(await picture.text()).toBe("webp");
    expect(picture.headers.get("cache-control")).toBe("public, max-age=86400");
    const icon = await fetch(`${url}/favicon.svg`);
    expect(await icon.text()).toBe("<svg/>");
    const worker = await fetch(`${url}/door-sw.js`);
    expect(worker.headers.get("cache-control")).toBe("no-cache");
    expect(worker.headers.get("service-worker-allowed")).toBe("/admin/check-in/");
  });

  it("passes pages, and names missing from a folder, to the site", async () => {
    expect(await (await fetch(`${url}/about`)).text()).toBe("the site answered /about");
    expect(await (await fetch(`${url}/images/share/logo.jpg`)).text()).toBe("the site answered /images/share/logo.jpg");
  });

  it("knows its top-level files from start-up: a file added later is not served in a page's place", async () => {
    fs.writeFileSync(path.join(root, "volunteering"), "a stray file");
    expect(await (await fetch(`${url}/volunteering`)).text()).toBe("the site answered /volunteering");
  });
});
