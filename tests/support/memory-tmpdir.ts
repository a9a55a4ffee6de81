import fs from "node:fs";
import path from "node:path";

/**
 * Points the temporary folder (TMPDIR, which os.tmpdir() reads) of a test run and everything it
 * starts at a folder in memory (/dev/shm, a tmpfs), when the machine has one and no TMPDIR was
 * chosen. Test servers' data folders, the prepared databases they copy (tests/support/databases.ts)
 * and the browsers' profiles live there: on the two-core machine, copying a 40 MB data folder of
 * 1,100 files to the disk took 1.7-7 s of a test server's start under load, and 0.3-0.6 s to
 * /dev/shm. It is the same PGlite on the same kind of files; only the power-cut durability of the
 * test's own throw-away data differs, which no test relies on.
 * docs/decisions/039-a-faster-suite-on-two-cores.md.
 */
export function useMemoryTmpdir(): void {
  if (process.env.TMPDIR) return;
  const folder = path.join("/dev/shm", "kilele-tests");
  try {
    fs.mkdirSync(folder, { recursive: true });
    fs.accessSync(folder, fs.constants.W_OK);
  } catch {
    return;
  }
  process.env.TMPDIR = folder;
}
