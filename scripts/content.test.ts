import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../app/infra/db/database.server";
import { PictureLibrary } from "../app/infra/images/uploads.server";
import { ContentStore } from "../app/features/content/store.server";
import { staffUsers } from "~db/schema";
import { testClock } from "../tests/support/clock";
import { readContent } from "../tests/support/content";
import { newSiteDataDir } from "../tests/support/site-process";

const run = promisify(execFile);

describe("npm run content -- export", () => {
  it(
    "writes what is published back to content/<name>/content.json, formatted as the files are",
    { timeout: 90_000 },
    async () => {
      const dataDir = await newSiteDataDir();
      const contentDir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-export-"));
      await fs.cp("content", contentDir, { recursive: true, filter: (src) => !src.includes(`${path.sep}images`) });
      try {
        const database = await openDatabase({ dataDir });
        const clock = testClock();
        const store = new ContentStore(database, {
          clock,
          contentDir,
          pictures: new PictureLibrary(path.resolve("content/images")),
          watchFiles: false,
        });
        await store.start();
        const [staff] = await database.db
          .insert(staffUsers)
          .values({ email: "trustee@example.org", passwordHash: "x", createdAt: clock.now() })
          .returning();
        const volunteering = { ...readContent("volunteering"), formTitle: "Join us in 2031" };
        expect((await store.publish("volunteering", volunteering, staff!)).ok).toBe(true);
        await store.stop();
        await database.close();

        const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/content.ts", "export"], {
          env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, CONTENT_DIR: contentDir },
        });
        expect(stdout).toContain("volunteering/content.json: written (version 2)");
        expect(stdout).toContain("contact/content.json: unchanged");
        const written = await fs.readFile(path.join(contentDir, "volunteering", "content.json"), "utf8");
        expect(JSON.parse(written)).toEqual(volunteering);
        // As the files are kept: two spaces, a final newline, lines up to 120 characters joined.
        expect(written).toMatch(/^\{\n {2}"title": "Volunteering",\n/);
        expect(written.endsWith("}\n")).toBe(true);
        expect(written).toBe(
          await fs
            .readFile(path.resolve("content/volunteering/content.json"), "utf8")
            .then((file) => file.replace('"formTitle": "Join us in 2025"', '"formTitle": "Join us in 2031"')),
        );
      } finally {
        await fs.rm(dataDir, { recursive: true, force: true });
        await fs.rm(contentDir, { recursive: true, force: true });
      }
    },
  );
});
