import { execFile, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "../app/infra/db/database.server";
import { readBackup } from "../app/infra/db/backup-file.server";
import { backUpInto } from "../app/infra/db/automatic-backups.server";
import { uploadedImageFiles, uploadedImages } from "~db/schema";
import { newSiteDataDir, testNodeFlags } from "../tests/support/site-process";

const run = promisify(execFile);
const nodeArgs = (script: string, ...args: string[]) => [...testNodeFlags, "--import", "tsx", script, ...args];

/** The result of running a script to its end, failing or not. */
async function runScript(script: string, args: string[], env: Record<string, string>) {
  return run(process.execPath, nodeArgs(script, ...args), { env: { PATH: process.env.PATH ?? "", ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

describe("npm run backup and npm run restore on the embedded database", () => {
  let dataDir: string;
  let folder: string;
  beforeEach(async () => {
    dataDir = await newSiteDataDir();
    folder = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-backups-"));
  });
  afterEach(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
    await fs.rm(folder, { recursive: true, force: true });
  });

  const passphrase = "the trustees' long passphrase";

  /** The site's own encrypted daily backup of the data folder, as its job writes it; answers the file. */
  async function encryptedBackup(): Promise<string> {
    const site = await openDatabase({ dataDir });
    try {
      const name = "kilele-2026-11-27T0200Z.backup.gz.age";
      return (await backUpInto(site, { dir: folder, passphrase }, name, new Date())).file;
    } finally {
      await site.close();
    }
  }

  it(
    "a backup killed part way leaves no file that looks complete; the next one succeeds and restores",
    { timeout: 120_000 },
    async () => {
      // 12 MB of uploaded pictures (as random bytes), so the backup takes long enough to be killed in.
      const database = await openDatabase({ dataDir });
      const now = new Date("2026-11-22T10:00:00Z");
      for (let i = 0; i < 12; i++) {
        const id = crypto.randomUUID();
        await database.db
          .insert(uploadedImages)
          .values({ id, width: 1600, height: 1200, originalName: `${i}.jpg`, createdAt: now });
        await database.db
          .insert(uploadedImageFiles)
          .values({ imageId: id, width: 1600, format: "jpeg", bytes: crypto.randomBytes(1 << 20) });
      }
      await database.close();

      const file = path.join(folder, "site.backup.gz");
      const child = spawn(process.execPath, nodeArgs("scripts/backup.ts", "--to", file), {
        env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir },
        stdio: "ignore",
      });
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      let running = true;
      void exited.then(() => (running = false));
      // Killed as soon as it has started writing.
      let seen: string[] = [];
      while (running && !seen.some((name) => name.endsWith(".kilele-body"))) {
        seen = await fs.readdir(folder);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      expect(running, "the backup ended before it could be killed").toBe(true);
      child.kill("SIGKILL");
      await exited;
      const left = await fs.readdir(folder);
      expect(left.filter((name) => !name.startsWith("."))).toEqual([]);
      expect(left.every((name) => /\.\d+\.kilele-(body|partial)$/.test(name))).toBe(true);

      const again = await runScript("scripts/backup.ts", ["--to", file], { DATA_DIR: dataDir });
      expect(again.stderr).toBe("");
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/^Backed up \d+ tables, \d+ rows, from the embedded database \(migration \d{4}_/);
      // The killed backup's leftovers are gone; the new file is whole.
      expect(await fs.readdir(folder)).toEqual(["site.backup.gz"]);
      const manifest = await readBackup(file);
      expect(manifest.tables.find((table) => table.name === "uploaded_image_files")?.rows).toBe(12);
      console.info(`12 MB of pictures: ${again.stdout.split("\n")[0]} ${again.stdout.split("\n")[1]}`);

      // Restored into an empty data folder, each table is printed against the manifest.
      const restoreDir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-restored-"));
      try {
        const restored = await runScript("scripts/restore.ts", [file], { DATA_DIR: restoreDir });
        expect(restored.stderr).toBe("");
        expect(restored.code).toBe(0);
        expect(restored.stdout).toMatch(/uploaded_image_files\s+12 {2}matches the manifest/);
        expect(restored.stdout).toContain("Every table's rows and checksum match the manifest");
        console.info(`restore: ${restored.stdout.split("\n").at(-2)}`);

        const refused = await runScript("scripts/restore.ts", [file], { DATA_DIR: restoreDir });
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain("Not restored: The target database is not empty");
      } finally {
        await fs.rm(restoreDir, { recursive: true, force: true });
      }
    },
  );

  it(
    "refuses to back up an embedded database the running site holds open, saying what to do",
    { timeout: 60_000 },
    async () => {
      const site = await openDatabase({ dataDir });
      try {
        const result = await runScript("scripts/backup.ts", ["--to", path.join(folder, "x.backup.gz")], {
          DATA_DIR: dataDir,
        });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(
          `The site is running on the embedded database in ${dataDir} (process ${process.pid})`,
        );
        expect(result.stderr).toContain("Stop the site, run npm run backup again, then start the site");
        expect(await fs.readdir(folder)).toEqual([]);
      } finally {
        await site.close();
      }
    },
  );

  it(
    "encrypts with BACKUP_PASSPHRASE, as the site's own backups are, and leaves no plain copy",
    { timeout: 120_000 },
    async () => {
      const made = await runScript("scripts/backup.ts", ["--to", path.join(folder, "by-hand.backup.gz")], {
        DATA_DIR: dataDir,
        BACKUP_PASSPHRASE: passphrase,
      });
      expect(made.stderr).toBe("");
      expect(made.stdout).toContain(`${path.join(folder, "by-hand.backup.gz.age")} (`);
      expect(made.stdout).toContain("encrypted with BACKUP_PASSPHRASE");
      expect(await fs.readdir(folder)).toEqual(["by-hand.backup.gz.age"]);
      const sealed = await fs.readFile(path.join(folder, "by-hand.backup.gz.age"));
      expect(sealed.subarray(0, 21).toString()).toBe("age-encryption.org/v1");

      const restoreDir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-restored-"));
      try {
        const restored = await runScript("scripts/restore.ts", [path.join(folder, "by-hand.backup.gz.age")], {
          DATA_DIR: restoreDir,
          BACKUP_PASSPHRASE: passphrase,
        });
        expect(restored.code).toBe(0);
        expect(restored.stdout).toContain("Every table's rows and checksum match the manifest");
      } finally {
        await fs.rm(restoreDir, { recursive: true, force: true });
      }
    },
  );

  it("at a terminal, asks for the passphrase without showing it, and restores", { timeout: 120_000 }, async () => {
    const file = await encryptedBackup();
    const restoreDir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-restored-"));
    try {
      // `script` gives the command a terminal of its own, whose keyboard is this test's writes.
      const command = [process.execPath, ...nodeArgs("scripts/restore.ts", file)].map((arg) => `'${arg}'`).join(" ");
      const child = spawn("script", ["-qfec", command, "/dev/null"], {
        env: { PATH: process.env.PATH ?? "", DATA_DIR: restoreDir },
      });
      let output = "";
      let typed = false;
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => {
        output += chunk;
        if (!typed && output.includes("Its passphrase")) {
          typed = true;
          child.stdin.write(`${passphrase}\r`);
        }
      });
      const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
      expect(output).toContain("is encrypted. Its passphrase (BACKUP_PASSPHRASE when it was made):");
      expect(output).not.toContain(passphrase);
      expect(output).toContain("Every table's rows and checksum match the manifest");
      expect(code).toBe(0);
    } finally {
      await fs.rm(restoreDir, { recursive: true, force: true });
    }
  });

  it(
    "restores an encrypted backup with BACKUP_PASSPHRASE, and refuses without it or with a wrong one, changing nothing",
    { timeout: 120_000 },
    async () => {
      const file = await encryptedBackup();
      const restoreDir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-restored-"));
      try {
        const without = await runScript("scripts/restore.ts", [file], { DATA_DIR: restoreDir });
        expect(without.code).toBe(1);
        expect(without.stderr).toContain("is encrypted. Set BACKUP_PASSPHRASE");
        const wrong = await runScript("scripts/restore.ts", [file], {
          DATA_DIR: restoreDir,
          BACKUP_PASSPHRASE: "not the passphrase at all",
        });
        expect(wrong.code).toBe(1);
        expect(wrong.stderr).toContain("Not restored, nothing changed: The passphrase does not open");
        // Nothing was opened, let alone written.
        expect(await fs.readdir(restoreDir)).toEqual([]);

        const restored = await runScript("scripts/restore.ts", [file], {
          DATA_DIR: restoreDir,
          BACKUP_PASSPHRASE: passphrase,
        });
        expect(restored.stderr).toBe("");
        expect(restored.code).toBe(0);
        expect(restored.stdout).toContain("Every table's rows and checksum match the manifest");
      } finally {
        await fs.rm(restoreDir, { recursive: true, force: true });
      }
    },
  );
});
