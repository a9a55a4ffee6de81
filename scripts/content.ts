// `npm run content -- export`: writes the content visitors see (the newest published version of
// each page, kept in the database) to content/<name>/content.json, formatted as the files are, so
// staff's edits can be committed. Uses the same configuration as the site (DATABASE_URL or
// DATA_DIR, CONTENT_DIR); with the embedded database, stop the site first. The next start finds
// the files the same as what is published and publishes nothing (docs/decisions/031-content-in-the-database.md).
import fs from "node:fs/promises";
import path from "node:path";
import prettier from "prettier";
import { getConfig } from "../app/infra/config.server";
import { openDatabase } from "../app/infra/db/database.server";
import { PictureLibrary } from "../app/infra/images/uploads.server";
import { ContentStore } from "../app/features/content/store.server";
import { systemClock } from "../app/lib/clock";

const usage = "Usage:\n  npm run content -- export";

async function main() {
  const [command] = process.argv.slice(2);
  if (command !== "export") {
    console.error(usage);
    return 2;
  }
  const config = getConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  const store = new ContentStore(database, {
    clock: systemClock,
    contentDir: config.contentDir,
    pictures: new PictureLibrary(path.join(config.contentDir, "images")),
    watchFiles: false,
  });
  try {
    await store.start({ importFiles: false });
    for (const { name, version, content } of await store.exportable()) {
      const file = path.join(config.contentDir, name, "content.json");
      const options = (await prettier.resolveConfig(file)) ?? {};
      const text = await prettier.format(JSON.stringify(content, null, 2), { ...options, filepath: file });
      const before = await fs.readFile(file, "utf8").catch(() => undefined);
      const label = path.relative(process.cwd(), file) || file;
      if (before === text) {
        console.log(`${label}: unchanged`);
        continue;
      }
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, text);
      console.log(`${label}: written${version === null ? "" : ` (version ${version})`}`);
    }
    return 0;
  } finally {
    await store.stop();
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
