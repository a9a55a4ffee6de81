import crypto from "node:crypto";
import fsSync from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { StringDecoder } from "node:string_decoder";
import zlib from "node:zlib";
import { z } from "zod";

// A backup is one gzip'd file of JSON lines (docs/decisions/066-backups-one-file-either-engine.md):
//   line 1            the manifest (below)
//   {"table":"x"}     a table's section, in the manifest's order, then one line per row:
//   [v1, v2, ...]     its values in the manifest's column order, in the table's primary key order
//   {"end":{...}}     the SHA-256 of every byte before this line
// A table's checksum is the SHA-256 of its row lines, each with its newline.

export const backupFormat = "kilele-backup";
export const backupFormatVersion = 1;

const columnSchema = z.object({ name: z.string().min(1), type: z.string().min(1) });
const tableSchema = z.object({
  name: z.string().min(1),
  columns: z.array(columnSchema).min(1),
  rows: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
const manifestSchema = z.object({
  format: z.literal(backupFormat),
  formatVersion: z.literal(backupFormatVersion),
  site: z.object({ name: z.string(), version: z.string() }),
  engine: z.enum(["pglite", "postgres"]),
  server: z.string(),
  migration: z.object({ tag: z.string().nullable(), when: z.number(), hash: z.string(), count: z.number() }),
  createdAt: z.string(),
  tables: z.array(tableSchema),
});

export type BackupColumn = z.infer<typeof columnSchema>;
export type TableManifest = z.infer<typeof tableSchema>;
/** What the file holds: the site and migration it was made at, when, and each table's rows and checksum. */
export type BackupManifest = z.infer<typeof manifestSchema>;

/** A file that is not a whole, unchanged backup; the message says what is wrong with it. */
export class BackupFileError extends Error {
  override name = "BackupFileError";
}

const partialSuffix = /^\.(.+)\.(\d+)\.kilele-(partial|body)$/;

/**
 * Writes a backup file so that it exists under its name only when complete: the rows go to a
 * hidden file beside it, then the manifest and rows are written, compressed, to a second hidden
 * file, which is flushed to the disk and renamed. A process killed on the way leaves only hidden
 * files named after its process id, which the next backup into the folder removes.
 */
export class BackupWriter {
  private readonly body: string;
  private readonly partial: string;
  private handle: fs.FileHandle | undefined;
  private pending: string[] = [];
  private pendingBytes = 0;

  private constructor(readonly file: string) {
    const dir = path.dirname(file);
    const base = path.basename(file);
    this.body = path.join(dir, `.${base}.${process.pid}.kilele-body`);
    this.partial = path.join(dir, `.${base}.${process.pid}.kilele-partial`);
  }

  static async create(file: string): Promise<BackupWriter> {
    const writer = new BackupWriter(path.resolve(file));
    await fs.mkdir(path.dirname(writer.file), { recursive: true });
    await removeAbandoned(path.dirname(writer.file));
    writer.handle = await fs.open(writer.body, "w", 0o600);
    return writer;
  }

  /** Starts a table's section. */
  async table(name: string): Promise<void> {
    await this.write(`${JSON.stringify({ table: name })}\n`);
  }

  /** Adds row lines (each a JSON array, without its newline). */
  async rows(lines: readonly string[]): Promise<void> {
    for (const line of lines) await this.write(`${line}\n`);
  }

  private async write(text: string) {
    this.pending.push(text);
    this.pendingBytes += text.length;
    if (this.pendingBytes > 1 << 20) await this.flush();
  }

  private async flush() {
    if (this.pending.length === 0) return;
    await this.handle!.write(this.pending.join(""));
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Writes the manifest and the rows, compressed, under the file's name; answers its size in bytes. */
  async finish(manifest: BackupManifest): Promise<number> {
    await this.flush();
    await this.handle!.close();
    this.handle = undefined;
    const whole = crypto.createHash("sha256");
    const body = this.body;
    async function* content() {
      const head = Buffer.from(`${JSON.stringify(manifest)}\n`);
      whole.update(head);
      yield head;
      for await (const chunk of fsSync.createReadStream(body, { highWaterMark: 1 << 20 })) {
        whole.update(chunk as Buffer);
        yield chunk as Buffer;
      }
      yield Buffer.from(`${JSON.stringify({ end: { sha256: whole.digest("hex") } })}\n`);
    }
    await pipeline(content(), zlib.createGzip({ level: 6 }), fsSync.createWriteStream(this.partial, { mode: 0o600 }));
    const written = await fs.open(this.partial, "r+");
    try {
      await written.sync();
    } finally {
      await written.close();
    }
    await fs.rename(this.partial, this.file);
    await syncFolder(path.dirname(this.file));
    await fs.rm(this.body, { force: true });
    return (await fs.stat(this.file)).size;
  }

  /** Removes what was written after a failure. */
  async abandon(): Promise<void> {
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
    await fs.rm(this.body, { force: true });
    await fs.rm(this.partial, { force: true });
  }
}

/** So that a rename survives a power cut, the folder holding it is flushed too. */
async function syncFolder(dir: string) {
  const handle = await fs.open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Removes the hidden files of backups whose process died while writing them. */
async function removeAbandoned(dir: string) {
  for (const name of await fs.readdir(dir)) {
    const match = partialSuffix.exec(name);
    if (match && !isAlive(Number(match[2]))) await fs.rm(path.join(dir, name), { force: true });
  }
}

function isAlive(pid: number) {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** What reading a backup hands on: each table's rows, in batches of about `batchBytes`. */
export interface BackupVisitor {
  rows(table: TableManifest, lines: string[]): Promise<void>;
}

const batchRows = 1000;
const batchBytes = 4 << 20;

/**
 * Reads a backup, checking it as it goes: the manifest, each table's section in its order, each
 * row's shape, each table's row count and checksum, and the checksum of the whole at its end.
 * Throws a BackupFileError naming the first thing wrong. A `visitor` is handed a table's rows in
 * batches before its checksum is known, so it must be able to undo them (a restore's transaction):
 * check the file once without one first.
 */
export async function readBackup(file: string, visitor?: BackupVisitor): Promise<BackupManifest> {
  const whole = crypto.createHash("sha256");
  let manifest: BackupManifest | undefined;
  let tableIndex = -1;
  let table: TableManifest | undefined;
  let tableHash = crypto.createHash("sha256");
  let tableRows = 0;
  let batch: string[] = [];
  let batchSize = 0;
  let ended = false;

  const flush = async () => {
    if (table && batch.length > 0 && visitor) await visitor.rows(table, batch);
    batch = [];
    batchSize = 0;
  };
  const closeTable = async () => {
    if (!table) return;
    if (tableRows !== table.rows) {
      throw new BackupFileError(
        `Table ${table.name} has ${tableRows} rows in the file, but its manifest says ${table.rows}: the file has been changed or damaged.`,
      );
    }
    const sha256 = tableHash.digest("hex");
    if (sha256 !== table.sha256) {
      throw new BackupFileError(
        `The rows of table ${table.name} do not match their checksum in the manifest: the file has been changed or damaged.`,
      );
    }
    await flush();
    table = undefined;
  };

  for await (const line of linesOf(file)) {
    if (ended) throw new BackupFileError(`${file} goes on after its end line: it is not a backup as written.`);
    if (!manifest) {
      manifest = parseManifest(file, line);
      whole.update(`${line}\n`);
      continue;
    }
    if (line.startsWith("[")) {
      if (!table) throw new BackupFileError(`${file} has rows before its first table: it is damaged.`);
      let values: unknown;
      try {
        values = JSON.parse(line);
      } catch {
        values = undefined;
      }
      if (!Array.isArray(values) || values.length !== table.columns.length) {
        throw new BackupFileError(
          `Row ${tableRows + 1} of table ${table.name} is not a row of its ${table.columns.length} columns: the file is damaged.`,
        );
      }
      whole.update(`${line}\n`);
      tableHash.update(`${line}\n`);
      tableRows++;
      batch.push(line);
      batchSize += line.length;
      if (batch.length >= batchRows || batchSize >= batchBytes) await flush();
      continue;
    }
    const marker = parseMarker(file, line);
    if ("table" in marker) {
      await closeTable();
      const expected = manifest.tables[++tableIndex];
      if (!expected || expected.name !== marker.table) {
        throw new BackupFileError(
          `${file} has table ${marker.table} where its manifest lists ${expected ? expected.name : "no more tables"}: it is damaged.`,
        );
      }
      table = expected;
      tableHash = crypto.createHash("sha256");
      tableRows = 0;
      whole.update(`${line}\n`);
      continue;
    }
    await closeTable();
    const missing = manifest.tables[tableIndex + 1];
    if (missing) {
      throw new BackupFileError(`${file} ends without table ${missing.name}, which its manifest lists: it is damaged.`);
    }
    const sha256 = whole.digest("hex");
    if (sha256 !== marker.end.sha256) {
      throw new BackupFileError(
        `The checksum of ${file} (SHA-256 ${sha256}) is not the one written at its end (${marker.end.sha256}): the file has been changed or damaged.`,
      );
    }
    ended = true;
  }
  if (!manifest) throw new BackupFileError(`${file} is empty: it is not a backup.`);
  if (!ended) {
    throw new BackupFileError(
      `${file} stops before its end line: the backup is incomplete (cut short while it was written or copied).`,
    );
  }
  return manifest;
}

function parseManifest(file: string, line: string): BackupManifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new BackupFileError(
      `${file} does not start with a backup's manifest: it is not a backup made by npm run backup.`,
    );
  }
  const header = parsed as { format?: unknown; formatVersion?: unknown };
  if (header?.format !== backupFormat) {
    throw new BackupFileError(`${file} is not a backup made by npm run backup (it does not say "${backupFormat}").`);
  }
  if (typeof header.formatVersion === "number" && header.formatVersion > backupFormatVersion) {
    throw new BackupFileError(
      `${file} is in backup format ${header.formatVersion}, made by a newer version of the site; this version reads format ${backupFormatVersion}. Restore it with the version that made it, or a later one.`,
    );
  }
  const result = manifestSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new BackupFileError(`The manifest of ${file} is not valid (${issue.path.join(".")}: ${issue.message}).`);
  }
  return result.data;
}

const markerSchema = z.union([
  z.object({ table: z.string().min(1) }).strict(),
  z.object({ end: z.object({ sha256: z.string() }) }).strict(),
]);

function parseMarker(file: string, line: string): z.infer<typeof markerSchema> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    parsed = undefined;
  }
  const result = markerSchema.safeParse(parsed);
  if (!result.success)
    throw new BackupFileError(`${file} has a line that is neither a row nor a table's start: it is damaged.`);
  return result.data;
}

/** The file's lines, decompressed; a file that cannot be read or decompressed is a BackupFileError. */
async function* linesOf(file: string): AsyncGenerator<string> {
  const source = fsSync.createReadStream(file, { highWaterMark: 1 << 20 });
  const gunzip = zlib.createGunzip({ chunkSize: 1 << 20 });
  source.on("error", (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  const decoder = new StringDecoder("utf8");
  // A row holding a picture is a megabyte or more: its pieces are kept and joined once, and only
  // each new piece is searched for the line's end.
  let pieces: string[] = [];
  try {
    for await (const chunk of gunzip) {
      const text = decoder.write(chunk as Buffer);
      let start = 0;
      for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
        pieces.push(text.slice(start, end));
        yield pieces.join("");
        pieces = [];
        start = end + 1;
      }
      if (start < text.length) pieces.push(text.slice(start));
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new BackupFileError(`There is no file ${file}.`);
    if (code === "EISDIR") throw new BackupFileError(`${file} is a folder, not a backup file.`);
    if (error instanceof BackupFileError) throw error;
    if (code === "Z_BUF_ERROR") {
      throw new BackupFileError(
        `${file} stops short: the backup is incomplete (cut short while it was written or copied).`,
      );
    }
    throw new BackupFileError(
      `${file} is damaged: it cannot be decompressed (${(error as Error).message}). It is not a usable backup.`,
    );
  } finally {
    source.destroy();
  }
  pieces.push(decoder.end());
  const last = pieces.join("");
  if (last !== "") yield last;
}
