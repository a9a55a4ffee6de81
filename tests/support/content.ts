import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { contentNames } from "~/features/content/content.server";
import { contentFiles, type ContentName, type ContentOf } from "~/features/content/schema";
import { charityOf } from "~/infra/payments/provider.server";

/** A content file as the site reads it, so tests expect what the charity wrote. */
export function readContent<N extends ContentName>(name: N): ContentOf<N> {
  const raw = JSON.parse(fs.readFileSync(path.resolve("content", name, "content.json"), "utf8"));
  return contentFiles[name].schema.parse(raw) as ContentOf<N>;
}

/** The charity's details as receipts use them (from content/site), for the data-layer tests. */
export const testCharity = charityOf(readContent("site"), "https://kilele.example");

/** A copy of content/ (the JSON files; the pictures are named from the real folder) that a test may change. */
export async function contentCopy(): Promise<string> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "kilele-content-"));
  for (const name of contentNames) {
    await fs.promises.mkdir(path.join(dir, name));
    await fs.promises.copyFile(path.resolve("content", name, "content.json"), path.join(dir, name, "content.json"));
  }
  return dir;
}
