import fs from "node:fs";
import path from "node:path";
import { contentFiles, type ContentName, type ContentOf } from "~/features/content/schema";
import { charityOf } from "~/infra/payments/provider.server";

/** A content file as the site reads it, so tests expect what the charity wrote. */
export function readContent<N extends ContentName>(name: N): ContentOf<N> {
  const raw = JSON.parse(fs.readFileSync(path.resolve("content", name, "content.json"), "utf8"));
  return contentFiles[name].schema.parse(raw) as ContentOf<N>;
}

/** The charity's details as receipts use them (from content/site), for the data-layer tests. */
export const testCharity = charityOf(readContent("site"), "https://kilele.example");
