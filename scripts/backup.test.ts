import { execFile, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "../app/infra/db/database.server";
import { readBackup } from "../app/infra/db/backup-file.server";
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

// The drill an operator's backup and restore go through, the commands run as the operator runs them,
// each run a process of its own. Node, the site's modules and the embedded database cost a few
// seconds a run, and an encrypted file a second or two of scrypt to open, so one sequence of runs
// proves every rule of the two commands, and none is repeated per engine: the commands' rules are
// the same on either (app/infra/db/backup.server.test.ts restores across the engines, in one process).
describe("npm run backup and npm run restore on the embedded database", () => {
  let dataDir: string;
  let folder: string;
  let restoreDir: string;
  beforeEach(async () => {
    dataDir = await newSiteDataDir();
    folder = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-backups-"));
    restoreDir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-restored-"));
  });
  afterEach(async () => {
    for (const dir of [dataDir, folder, restoreDir]) await fs.rm(dir, { recursive: true, force: true });
  });

  const passphrase = "the trustees' long passphrase";

  it(
    "refuses while the site holds the database; a backup killed part way leaves no file that looks complete; the next, plain or encrypted, is whole; an encrypted one restores only with its passphrase, asked for at a terminal without showing it; none restores over data",
    { timeout: 240_000 },
    async () => {
      // 12 MB of uploaded pictures (as random bytes), so the backup takes long enough to be killed in.
      const database = await openDatabase({ dataDir });
      try {
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

        // While this process (standing for the running site) holds the embedded database open.
        const refused = await runScript("scripts/backup.ts", ["--to", path.join(folder, "x.backup.gz")], {
          DATA_DIR: dataDir,
        });
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(
          `The site is running on the embedded database in ${dataDir} (process ${process.pid})`,
        );
        expect(refused.stderr).toContain("Stop the site, run npm run backup again, then start the site");
        expect(await fs.readdir(folder)).toEqual([]);
      } finally {
        await database.close();
      }

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

      // With BACKUP_PASSPHRASE, as the site's own backups are (the same encryptFile, so the restore
      // below opens those the same way): only the encrypted file is left.
      const sealed = path.join(folder, "sealed.backup.gz");
      const encrypted = await runScript("scripts/backup.ts", ["--to", sealed], {
        DATA_DIR: dataDir,
        BACKUP_PASSPHRASE: passphrase,
      });
      expect(encrypted.stderr).toBe("");
      expect(encrypted.stdout).toContain(`${sealed}.age (`);
      expect(encrypted.stdout).toContain("encrypted with BACKUP_PASSPHRASE");
      expect((await fs.readdir(folder)).sort()).toEqual(["sealed.backup.gz.age", "site.backup.gz"]);
      expect((await fs.readFile(`${sealed}.age`)).subarray(0, 21).toString()).toBe("age-encryption.org/v1");

      const without = await runScript("scripts/restore.ts", [`${sealed}.age`], { DATA_DIR: restoreDir });
      expect(without.code).toBe(1);
      expect(without.stderr).toContain("is encrypted. Set BACKUP_PASSPHRASE");
      const wrong = await runScript("scripts/restore.ts", [`${sealed}.age`], {
        DATA_DIR: restoreDir,
        BACKUP_PASSPHRASE: "not the passphrase at all",
      });
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain("Not restored, nothing changed: The passphrase does not open");
      // Nothing was opened, let alone written.
      expect(await fs.readdir(restoreDir)).toEqual([]);

      // Into the empty data folder, at a terminal: `script` gives the command a terminal of its own,
      // whose keyboard is this test's writes. Each table is printed against the manifest.
      const command = [process.execPath, ...nodeArgs("scripts/restore.ts", `${sealed}.age`)]
        .map((arg) => `'${arg}'`)
        .join(" ");
      const terminal = spawn("script", ["-qfec", command, "/dev/null"], {
        env: { PATH: process.env.PATH ?? "", DATA_DIR: restoreDir },
      });
      let output = "";
      let typed = false;
      terminal.stdout.setEncoding("utf8");
      terminal.stdout.on("data", (chunk: string) => {
        output += chunk;
        if (!typed && output.includes("Its passphrase")) {
          typed = true;
          terminal.stdin.write(`${passphrase}\r`);
        }
      });
      const code = await new Promise<number | null>((resolve) => terminal.once("close", resolve));
      expect(output).toContain("is encrypted. Its passphrase (BACKUP_PASSPHRASE when it was made):");
      expect(output).not.toContain(passphrase);
      expect(output).toMatch(/uploaded_image_files\s+12 {2}matches the manifest/);
      expect(output).toContain("Every table's rows and checksum match the manifest");
      expect(code).toBe(0);
      console.info(`restore: ${output.trim().split("\n").at(-1)}`);

      const notAgain = await runScript("scripts/restore.ts", [file], { DATA_DIR: restoreDir });
      expect(notAgain.code).toBe(1);
      expect(notAgain.stderr).toContain("Not restored: The target database is not empty");
    },
  );
});
