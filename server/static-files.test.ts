import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseEncoding, staticFiles } from "./static-files";

// The production build's static files at their known addresses; everything else reaches the site
// without the disk being asked (decision 033).
let root: string;
let url: string;
let close: () => void;
const script = `export const words = ${JSON.stringify("a script long enough to be worth compressing ".repeat(100))};\n`;

/** A raw GET (fetch would decode the body), with the headers given; the body as it came. */
function get(
  address: string,
  headers: Record<string, string>,
  method = "GET",
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .request(address, { method, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on("error", reject)
      .end();
  });
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "kilele-static-"));
  fs.mkdirSync(path.join(root, "assets"));
  fs.writeFileSync(path.join(root, "assets", "entry-abc123.js"), "console.log(1);\n");
  // What the build's last step leaves (scripts/precompress.mjs): a script and its compressed forms.
  fs.writeFileSync(path.join(root, "assets", "home-def456.js"), script);
  fs.writeFileSync(path.join(root, "assets", "home-def456.js.br"), zlib.brotliCompressSync(script));
  fs.writeFileSync(path.join(root, "assets", "home-def456.js.gz"), zlib.gzipSync(script));
  fs.mkdirSync(path.join(root, "images"));
  fs.writeFileSync(path.join(root, "images", "logo-480.webp"), "webp");
  fs.writeFileSync(path.join(root, "favicon.svg"), "<svg/>");
  fs.writeFileSync(path.join(root, "door-sw.js"), "self;");
  const app = express();
  // As in production (server/http.ts): compression on the fly before the static files.
  app.use(compression());
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

describe("scripts compressed at build time", () => {
  it("sends a browser that accepts brotli the brotli file, as a script, kept for a year", async () => {
    const response = await get(`${url}/assets/home-def456.js`, { "Accept-Encoding": "gzip, deflate, br, zstd" });
    expect(response.status).toBe(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(response.headers.vary).toBe("Accept-Encoding");
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    // The build's file itself, not compressed again on the way.
    expect(response.body.equals(fs.readFileSync(path.join(root, "assets", "home-def456.js.br")))).toBe(true);
    expect(zlib.brotliDecompressSync(response.body).toString()).toBe(script);
  });

  it("sends the gzip file to a client that takes gzip but not brotli", async () => {
    for (const accept of ["gzip", "gzip, deflate", "br;q=0, gzip", "br;q=0.5, gzip"]) {
      const response = await get(`${url}/assets/home-def456.js`, { "Accept-Encoding": accept });
      expect(response.headers["content-encoding"], accept).toBe("gzip");
      expect(response.body.equals(fs.readFileSync(path.join(root, "assets", "home-def456.js.gz"))), accept).toBe(true);
      expect(zlib.gunzipSync(response.body).toString(), accept).toBe(script);
    }
  });

  it("sends the plain file to a client that accepts neither, and says the answer depends on Accept-Encoding", async () => {
    const clients: Record<string, string>[] = [
      {},
      { "Accept-Encoding": "identity" },
      { "Accept-Encoding": "br;q=0, gzip;q=0" },
    ];
    for (const headers of clients) {
      const response = await get(`${url}/assets/home-def456.js`, headers);
      expect(response.status).toBe(200);
      expect(response.headers["content-encoding"]).toBeUndefined();
      expect(response.headers.vary).toBe("Accept-Encoding");
      expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(response.body.toString()).toBe(script);
    }
  });

  it("answers HEAD with the headers of the compressed file, and a repeat visit with 304", async () => {
    const head = await get(`${url}/assets/home-def456.js`, { "Accept-Encoding": "br" }, "HEAD");
    expect(head.headers["content-encoding"]).toBe("br");
    expect(Number(head.headers["content-length"])).toBe(
      fs.statSync(path.join(root, "assets", "home-def456.js.br")).size,
    );
    const again = await get(`${url}/assets/home-def456.js`, {
      "Accept-Encoding": "br",
      "If-None-Match": String(head.headers.etag),
    });
    expect(again.status).toBe(304);
    const plain = await get(`${url}/assets/home-def456.js`, {});
    expect(plain.headers.etag).not.toBe(head.headers.etag);
  });

  it("chooses by the client's weights, brotli first when they are equal", () => {
    const both = ["br", "gzip"] as const;
    expect(chooseEncoding("gzip, deflate, br", both)).toBe("br");
    expect(chooseEncoding("br;q=0.8, gzip", both)).toBe("gzip");
    expect(chooseEncoding("*", both)).toBe("br");
    expect(chooseEncoding("gzip;q=0, *", both)).toBe("br");
    expect(chooseEncoding("br", ["gzip"])).toBeUndefined();
    expect(chooseEncoding("deflate", both)).toBeUndefined();
    expect(chooseEncoding(undefined, both)).toBeUndefined();
  });
});
