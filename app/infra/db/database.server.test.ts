import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { volunteers } from "../../../db/schema";
import { engines, freshDatabase } from "../../../tests/support/databases";
import { openDatabase } from "./database.server";

describe.each(engines)("the database on %s", (engine) => {
  it("comes up with every migration applied", async () => {
    const database = await freshDatabase(engine);
    try {
      await database.db
        .insert(volunteers)
        .values({ name: "A", email: "a@example.org", reason: "r", createdAt: new Date() });
      expect(await database.db.$count(volunteers)).toBe(1);
      expect(database.engine).toBe(engine);
    } finally {
      await database.close();
    }
  });
});

describe("the embedded database", () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true }))));

  it("keeps its data in DATA_DIR across a restart", async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-db-"));
    dirs.push(dataDir);
    const first = await openDatabase({ dataDir });
    await first.db.insert(volunteers).values({ name: "B", email: "b@example.org", reason: "r", createdAt: new Date() });
    await first.close();
    const second = await openDatabase({ dataDir });
    expect(await second.db.select({ name: volunteers.name }).from(volunteers)).toEqual([{ name: "B" }]);
    await second.close();
  });
});

describe("the embedded database's lock", () => {
  it("refuses a second opening of the same data folder while the first is open, and allows it after", async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-lock-"));
    try {
      const first = await openDatabase({ dataDir });
      // The same process opening it twice is as dangerous as two processes: use a foreign live pid.
      await fs.writeFile(path.join(dataDir, "db", "kilele.lock"), String(process.ppid));
      await expect(openDatabase({ dataDir })).rejects.toThrow(/is in use by process \d+\. Stop the site first/);
      await fs.writeFile(path.join(dataDir, "db", "kilele.lock"), String(process.pid));
      await first.close();
      const second = await openDatabase({ dataDir });
      await second.close();
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it("takes over a lock left by a process that has died", async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-lock-"));
    try {
      await fs.mkdir(path.join(dataDir, "db"), { recursive: true });
      await fs.writeFile(path.join(dataDir, "db", "kilele.lock"), "999999");
      const database = await openDatabase({ dataDir });
      await database.close();
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
