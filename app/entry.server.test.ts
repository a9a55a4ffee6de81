import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { withoutModulePreloads } from "./entry.server";

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
