// The build's last step: each text file under build/client/assets (JavaScript, CSS, SVG, JSON)
// compressed once, as brotli at its best quality (11) and gzip at 9, beside the file
// (`x.js.br`, `x.js.gz`), for server/static-files.ts to send to browsers that accept them. The
// `compression` middleware compresses each response as it goes, at a quality fast enough for
// that (brotli 4): about an eighth bigger for the same JavaScript
// (docs/decisions/036-a-light-first-visit.md). A variant not smaller than its file is not kept.
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The kinds of file worth compressing: text. Pictures and fonts are compressed already. */
export const compressible = /\.(?:js|mjs|css|svg|json|txt|map|html|xml|webmanifest)$/;

/** Writes `.br` and `.gz` beside every compressible file in `dir` (recursively); returns how many files. */
export async function precompress(dir) {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  const files = entries
    .filter((entry) => entry.isFile() && compressible.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
  await Promise.all(
    files.map(async (file) => {
      const bytes = await fs.readFile(file);
      const variants = [
        [
          ".br",
          await brotli(bytes, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          }),
        ],
        [".gz", await gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION })],
      ];
      for (const [extension, compressed] of variants) {
        if (compressed.length < bytes.length) await fs.writeFile(file + extension, compressed);
        else await fs.rm(file + extension, { force: true });
      }
    }),
  );
  return files.length;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const dir = process.argv[2] ?? path.join("build", "client", "assets");
  const count = await precompress(dir);
  console.log(`Compressed ${count} files in ${dir} (brotli 11, gzip 9).`);
}
