// The build, and `npm start`'s first step: builds the site (the pictures, then the app) only when
// what the build is made from changed since the last build. Plain JavaScript, run by node itself,
// so that a restart with an up-to-date build costs a hash of the sources and nothing else
// (docs/decisions/033-a-fast-server-and-start.md).
//
// The stamp is a SHA-256 of every input file's path and bytes, kept in build/.inputs-hash after a
// build that succeeded. It is the hash taken before that build, so a file edited while it ran
// makes the next start build again. No build folder, no stamp or another hash: build.
// `--always` builds whatever the stamp says (`npm run build`); `--check` only says whether a
// build is due (exit 1 when it is).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { precompress } from "./precompress.mjs";

/** What the build is made from. Page texts (content/*\/content.json) are read by the server at run time. */
const inputs = [
  "app",
  "server",
  "db",
  "content/images",
  "public",
  "scripts/build-images.ts",
  "scripts/build-if-changed.mjs",
  "scripts/precompress.mjs",
  "package.json",
  "package-lock.json",
  "react-router.config.ts",
  "vite.config.ts",
  "tsconfig.json",
];
/** Under the inputs, but written by the build itself. */
const outputs = new Set(["public/images"]);
const stampFile = path.join("build", ".inputs-hash");
const builtFiles = ["build/server/index.js", "build/client/assets"];

export function inputsHash() {
  const hash = createHash("sha256");
  const add = (file) => {
    if (outputs.has(file)) return;
    let stat;
    try {
      stat = fs.statSync(file);
    } catch (error) {
      if (error.code === "ENOENT") return;
      throw error;
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(file).sort()) add(path.posix.join(file, name));
    } else if (stat.isFile()) {
      hash.update(file).update("\0").update(fs.readFileSync(file)).update("\0");
    }
  };
  for (const input of inputs) add(input);
  return hash.digest("hex");
}

export function buildIsCurrent(hash = inputsHash()) {
  if (!builtFiles.every((file) => fs.existsSync(file))) return false;
  try {
    return fs.readFileSync(stampFile, "utf8").trim() === hash;
  } catch {
    return false;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const hash = inputsHash();
  const always = process.argv.includes("--always");
  if (!always && buildIsCurrent(hash)) {
    console.log("The build is up to date with the sources.");
  } else if (process.argv.includes("--check")) {
    console.log("The sources changed since the last build.");
    process.exit(1);
  } else {
    if (!always) console.log("The sources changed since the last build (or there is none): building.");
    fs.rmSync(stampFile, { force: true });
    // The pictures (scripts/build-images.ts), then the app (React Router's build, with Vite), then
    // its scripts and styles compressed once for all (scripts/precompress.mjs).
    for (const [tool, ...args] of [
      ["tsx", "scripts/build-images.ts"],
      ["react-router", "build"],
    ]) {
      const step = spawnSync(path.join("node_modules", ".bin", tool), args, { stdio: "inherit" });
      if (step.error) throw step.error;
      if (step.status !== 0) process.exit(step.status ?? 1);
    }
    await precompress(path.join("build", "client", "assets"));
    fs.writeFileSync(stampFile, hash + "\n");
  }
}
