// Makes the site's own sample video (docs/decisions/021-our-own-video.md): `npm run video`.
//
// For each slideshow in content/video/<name>.json it renders the named pictures (content/images,
// the same sources the build renders) to frames with sharp, joins them with crossfades in ffmpeg,
// and writes to public/video/:
//   <name>.<hash>.webm   VP9, tried first by browsers
//   <name>.<hash>.mp4    H.264, for every other browser
//   <name>.<hash>.vtt    the captions (WebVTT), from the slides' captions
// Each name carries a hash of the file, so the server can let browsers keep them for a year; the
// content files that name an earlier version (content/*/content.json) are updated to the new names,
// and the earlier files are removed. The outputs are committed: ffmpeg is needed only here, to
// remake them (Debian: apt-get install ffmpeg), never to build or run the site.

import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import {
  crossfadeFilter,
  slideSeconds,
  slideshowSchema,
  totalSeconds,
  webVtt,
  type Slideshow,
} from "./video/slideshow";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const showsDir = path.join(root, "content", "video");
const imagesDir = path.join(root, "content", "images");
const contentDir = path.join(root, "content");
const outputDir = path.join(root, "public", "video");
/** 720 lines, and the pictures' own 16:10 shape, so nothing is cropped. */
const frame = { width: 1152, height: 720 };
const fps = 25;
const sourceExtensions = [".svg", ".png", ".jpg", ".jpeg"];

const encodings = [
  {
    ext: "webm",
    args: ["-c:v", "libvpx-vp9", "-b:v", "0", "-crf", "38", "-deadline", "good", "-cpu-used", "4", "-row-mt", "1"],
  },
  {
    ext: "mp4",
    args: [
      ["-c:v", "libx264", "-preset", "slow", "-tune", "stillimage", "-crf", "27"],
      ["-profile:v", "high", "-level", "4.0", "-movflags", "+faststart"],
    ].flat(),
  },
] as const;

function fail(message: string): never {
  console.error(`make-video: ${message}`);
  process.exit(1);
}

function checkFfmpeg(): void {
  const probe = spawnSync("ffmpeg", ["-hide_banner", "-encoders"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) {
    fail("ffmpeg was not found. It is needed only to remake the video: install it (Debian: apt-get install ffmpeg).");
  }
  for (const encoder of ["libvpx-vp9", "libx264"]) {
    if (!probe.stdout.includes(encoder))
      fail(`this ffmpeg has no ${encoder} encoder; Debian's ffmpeg package has both.`);
  }
}

async function readShow(file: string): Promise<Slideshow> {
  const label = path.relative(root, file);
  const result = slideshowSchema.safeParse(JSON.parse(await fs.readFile(file, "utf8")));
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join(".") || "(file)"}: ${issue.message}`);
    fail(`${label} is not valid:\n${problems.join("\n")}`);
  }
  return result.data;
}

async function pictureFile(name: string): Promise<string> {
  for (const ext of sourceExtensions) {
    const file = path.join(imagesDir, `${name}${ext}`);
    if (await exists(file)) return file;
  }
  return fail(`no picture content/images/${name} (${sourceExtensions.join(", ")})`);
}

/** One slide as a PNG frame of the video's size (vector artwork rasterised at that size, not scaled up). */
async function renderFrame(picture: string, out: string): Promise<void> {
  const file = await pictureFile(picture);
  const meta = await sharp(file).metadata();
  const density = file.endsWith(".svg") && meta.width ? (72 * frame.width) / meta.width : undefined;
  await sharp(file, density ? { density } : {})
    .resize({ ...frame, fit: "cover" })
    .flatten({ background: "#ffffff" })
    .png()
    .toFile(out);
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let errors = "";
    child.stderr.on("data", (chunk) => (errors = (errors + chunk).slice(-4000)));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}:\n${errors}`)),
    );
  });
}

async function encode(show: Slideshow, frames: string[], ext: string, codec: readonly string[], out: string) {
  const seconds = slideSeconds(show);
  const inputs = frames.flatMap((file, i) => [
    "-loop",
    "1",
    "-framerate",
    String(fps),
    "-t",
    String(seconds[i]),
    "-i",
    file,
  ]);
  await run(
    "ffmpeg",
    [
      ["-hide_banner", "-loglevel", "error", "-y", "-threads", "2"],
      inputs,
      ["-filter_complex", crossfadeFilter(show, fps), "-map", "[video]", "-r", String(fps)],
      [
        "-t",
        String(totalSeconds(show)),
        "-pix_fmt",
        "yuv420p",
        "-an",
        "-map_metadata",
        "-1",
        "-fflags",
        "+bitexact",
        "-flags:v",
        "+bitexact",
      ],
      codec,
      ["-metadata", `title=${show.title}`, "-f", ext, out],
    ].flat(),
  );
}

function hashOf(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex").slice(0, 10);
}

/** Writes `data` as public/video/<name>.<hash>.<ext> and returns its path on the site. */
async function publish(name: string, ext: string, data: Buffer | string): Promise<string> {
  const file = `${name}.${hashOf(data)}.${ext}`;
  await fs.writeFile(path.join(outputDir, file), data);
  return `/video/${file}`;
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

/**
 * Content files that name this video (any version) now name the new files. Returns each such file,
 * and whether it changed (it does not when the outputs came out byte for byte the same).
 */
async function updateContent(name: string, published: Map<string, string>): Promise<string[]> {
  const pattern = new RegExp(`/video/${name.replace(/[.-]/g, "\\$&")}\\.[0-9a-f]+\\.(webm|mp4|vtt)\\b`, "g");
  const naming: string[] = [];
  for (const entry of await fs.readdir(contentDir, { withFileTypes: true })) {
    const file = path.join(contentDir, entry.name, "content.json");
    if (!entry.isDirectory() || !(await exists(file))) continue;
    const before = await fs.readFile(file, "utf8");
    const after = before.replace(pattern, (whole, ext: string) => published.get(ext) ?? whole);
    if (!before.match(pattern)) continue;
    if (after !== before) await fs.writeFile(file, after);
    naming.push(`${path.relative(root, file)} (${after === before ? "unchanged" : "updated"})`);
  }
  return naming;
}

async function makeVideo(showFile: string): Promise<void> {
  const name = path.basename(showFile, ".json");
  const show = await readShow(showFile);
  const started = performance.now();
  const work = await fs.mkdtemp(path.join(os.tmpdir(), `make-video-${name}-`));
  try {
    const frames = show.slides.map((_, i) => path.join(work, `slide-${String(i).padStart(3, "0")}.png`));
    await Promise.all(show.slides.map((slide, i) => renderFrame(slide.picture, frames[i]!)));

    await fs.mkdir(outputDir, { recursive: true });
    const earlier = (await fs.readdir(outputDir)).filter((file) => file.startsWith(`${name}.`));
    const published = new Map<string, string>();
    for (const { ext, args } of encodings) {
      const out = path.join(work, `${name}.${ext}`);
      await encode(show, frames, ext, args, out);
      published.set(ext, await publish(name, ext, await fs.readFile(out)));
    }
    published.set("vtt", await publish(name, "vtt", webVtt(show)));

    const current = new Set([...published.values()].map((src) => path.basename(src)));
    for (const file of earlier) if (!current.has(file)) await fs.rm(path.join(outputDir, file));
    const naming = await updateContent(name, published);

    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    console.log(`make-video: ${name}, ${totalSeconds(show)} s, ${show.slides.length} slides, made in ${seconds} s:`);
    for (const src of published.values()) {
      const { size } = await fs.stat(path.join(root, "public", src));
      console.log(`  public${src}  ${Math.round(size / 1024)} KB`);
    }
    if (naming.length > 0) console.log(`  named in ${naming.join(", ")}`);
    else {
      console.log(
        "  No content file names this video yet. To show it, set content/site/content.json's defaultVideo to:",
      );
      const sources = ["webm", "mp4"].map((ext) => published.get(ext));
      const video = {
        kind: "file",
        title: show.title,
        sources,
        captions: published.get("vtt"),
        captionsLanguage: show.language,
      };
      console.log(JSON.stringify(video, null, 2).replace(/^/gm, "  "));
    }
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  checkFfmpeg();
  const wanted = process.argv.slice(2);
  const files = (await fs.readdir(showsDir))
    .filter((file) => file.endsWith(".json"))
    .filter((file) => wanted.length === 0 || wanted.includes(path.basename(file, ".json")))
    .sort();
  if (files.length === 0) fail(`no slideshow ${wanted.join(", ")} in ${path.relative(root, showsDir)}/`);
  for (const file of files) await makeVideo(path.join(showsDir, file));
}

main().catch((error: unknown) => fail((error as Error).message));
