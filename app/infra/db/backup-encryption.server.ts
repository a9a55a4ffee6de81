import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

// Backups encrypted with a passphrase (BACKUP_PASSPHRASE) by age (https://age-encryption.org), the
// `age-encryption` library: scrypt for the passphrase, ChaCha20-Poly1305 for the bytes. Nothing
// here is cryptography of our own; a file made here opens with the `age` command too
// (`age -d FILE > backup.gz`). The whole file is held in memory while it is encrypted or decrypted:
// a small charity's backup is a few tens of megabytes (docs/operations.md, "Backups"). The library
// is loaded when a backup is first encrypted or opened, not at every start (docs/performance.md, "Start").

/** How an age file begins. */
const ageHeader = "age-encryption.org/v1\n";

/** The suffix an encrypted backup's name gets. */
export const encryptedSuffix = ".age";

export class WrongPassphraseError extends Error {
  override name = "WrongPassphraseError";
}

/** Whether `file` is encrypted with age (whatever its name). */
export async function isEncrypted(file: string): Promise<boolean> {
  const handle = await fs.open(file, "r");
  try {
    const start = Buffer.alloc(ageHeader.length);
    const { bytesRead } = await handle.read(start, 0, start.length, 0);
    return start.subarray(0, bytesRead).toString("latin1") === ageHeader;
  } finally {
    await handle.close();
  }
}

/**
 * Encrypts the file `plain` into `file` with `passphrase`: written under a hidden name, flushed, then
 * renamed, so `file` appears only when complete. Answers its size.
 */
export async function encryptFile(plain: string, file: string, passphrase: string): Promise<number> {
  const { Encrypter } = await import("age-encryption");
  const encrypter = new Encrypter();
  encrypter.setPassphrase(passphrase);
  const sealed = await encrypter.encrypt(new Uint8Array(await fs.readFile(plain)));
  const partial = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.kilele-partial`);
  try {
    const handle = await fs.open(partial, "w", 0o600);
    try {
      await handle.writeFile(sealed);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(partial, file);
  } catch (error) {
    await fs.rm(partial, { force: true });
    throw error;
  }
  return sealed.byteLength;
}

/**
 * Decrypts the age file `file` with `passphrase` into a new file only this user can read, in a new
 * temporary folder; answers its path and how to remove it. A wrong passphrase (or a damaged file)
 * throws WrongPassphraseError and writes nothing.
 */
export async function decryptToTemporaryFile(
  file: string,
  passphrase: string,
): Promise<{ file: string; remove: () => Promise<void> }> {
  const { Decrypter } = await import("age-encryption");
  const decrypter = new Decrypter();
  decrypter.addPassphrase(passphrase);
  let plain: Uint8Array;
  try {
    plain = await decrypter.decrypt(new Uint8Array(await fs.readFile(file)));
  } catch (error) {
    throw new WrongPassphraseError(
      `The passphrase does not open ${file} (${(error as Error).message}): it is not the passphrase the backup was made with, or the file is damaged.`,
    );
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-restore-"));
  const out = path.join(dir, "backup.gz");
  await fs.writeFile(out, plain, { mode: 0o600 });
  return { file: out, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}
