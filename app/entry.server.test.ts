import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { UNSAFE_ErrorResponseImpl as ErrorResponse, type AppLoadContext } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { handleError, withoutModulePreloads } from "./entry.server";

const page = (chunks: string[]) =>
  text(Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(withoutModulePreloads()));

describe("a page's head without React Router's module preloads", () => {
  it("drops the preload tags from <head>, even when a tag or the head's end is split between chunks", async () => {
    const html = await page([
      '<!DOCTYPE html><html><head><meta charSet="utf-8"/><link rel="modulepreload" href="/assets/entry.client-A.js" nonce=""/><link rel="module',
      'preload" href="/assets/site-B.js" nonce=""/><title>Kilele</title></he',
      "ad><body><p>Hello</p>",
      "</body></html>",
    ]);
    expect(html).toBe(
      '<!DOCTYPE html><html><head><meta charSet="utf-8"/><title>Kilele</title></head><body><p>Hello</p></body></html>',
    );
  });

  it("passes the body through as it is, a preload written there included, and keeps other links", async () => {
    const body = '<body><a href="/x">rel="modulepreload"</a><link rel="modulepreload" href="/later.js"/></body>';
    const html = await page(['<html><head><link rel="icon" href="/favicon.svg"/></head>', body]);
    expect(html).toBe(`<html><head><link rel="icon" href="/favicon.svg"/></head>${body}`);
  });

  it("does not lose a document that never closes its head", async () => {
    expect(await page(["<p>Only", " a fragment</p>"])).toBe("<p>Only a fragment</p>");
  });
});

describe("what React Router refuses before our code runs", () => {
  afterEach(() => vi.restoreAllMocks());
  function handled(error: unknown) {
    const written: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line) => void written.push(String(line)));
    const refusals: string[] = [];
    const context = { noteRefusal: (reason: string) => refusals.push(reason) } as unknown as AppLoadContext;
    handleError(error, { request: new Request("http://localhost/about", { method: "POST" }), context, params: {} });
    return { written, refusals };
  }

  it("goes in the request's log line as its reason, with nothing on standard error", () => {
    const noAction = new Error('You made a POST request to "/about" but did not provide an `action`');
    expect(handled(new ErrorResponse(405, "Method Not Allowed", noAction, true))).toEqual({
      written: [],
      refusals: ['You made a POST request to "/about" but did not provide an `action`'],
    });
    const origin = new Error(
      "The `request.url` origin does not match `origin` header from a forwarded action request. Aborting the action.",
    );
    expect(handled(origin).written).toEqual([]);
    expect(handled(new ErrorResponse(404, "Not Found", null, true)).refusals).toEqual(["404 Not Found"]);
  });

  it("is told apart from a fault, which is logged as one line with a reference", () => {
    const { written, refusals } = handled(new Error("the database went away"));
    expect(refusals).toEqual([]);
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]!)).toMatchObject({
      level: "error",
      msg: "unexpected error",
      where: "Answering a page",
      error: { message: "the database went away" },
    });
  });
});
