import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

// `npm start` builds only when the sources changed since the last build (decision 033). Run in a
// folder of its own, whose build tools stand in for the real ones: each records that it ran.
const script = path.resolve("scripts/build-if-changed.mjs");
let project: string;

function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
  fs.writeFileSync(path.join(project, file), text);
}

/** Runs the script in the project; answers its exit code and which build steps ran. */
function run(...args: string[]) {
  fs.rmSync(path.join(project, "ran"), { force: true });
  const result = spawnSync(process.execPath, [script, ...args], { cwd: project, encoding: "utf8" });
  const ran = fs.existsSync(path.join(project, "ran")) ? fs.readFileSync(path.join(project, "ran"), "utf8") : "";
  return { status: result.status, output: result.stdout + result.stderr, ran: ran.trim().split("\n").filter(Boolean) };
}

beforeEach(() => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), "kilele-build-stamp-"));
  // Stand-ins for the two build steps: each notes its name; the app's writes what a build leaves.
  write("node_modules/.bin/tsx", `#!/bin/sh\necho pictures >> ran\n`);
  write(
    "node_modules/.bin/react-router",
    `#!/bin/sh\necho app >> ran\nmkdir -p build/server build/client/assets\necho > build/server/index.js\n`,
  );
  fs.chmodSync(path.join(project, "node_modules/.bin/tsx"), 0o755);
  fs.chmodSync(path.join(project, "node_modules/.bin/react-router"), 0o755);
  write("app/root.tsx", "export default 1;\n");
  write("content/images/logo.svg", "<svg/>\n");
  write("content/home/content.json", "{}\n");
  write("package-lock.json", "{}\n");
});

afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

describe("building only when the sources changed", () => {
  it("builds on the first start, then not again until a source changes", () => {
    expect(run().ran).toEqual(["pictures", "app"]);
    const second = run();
    expect(second.ran).toEqual([]);
    expect(second.output).toContain("up to date");

    write("app/root.tsx", "export default 2;\n");
    expect(run().ran).toEqual(["pictures", "app"]);
    write("content/images/new-picture.svg", "<svg/>\n");
    expect(run().ran).toEqual(["pictures", "app"]);
    expect(run().ran).toEqual([]);
  });

  it("does not build again for a page text, which the server reads when it starts", () => {
    run();
    write("content/home/content.json", '{"title": "New"}\n');
    expect(run().ran).toEqual([]);
  });

  it("builds again when the build is gone, and always with --always", () => {
    run();
    fs.rmSync(path.join(project, "build/server"), { recursive: true });
    expect(run().ran).toEqual(["pictures", "app"]);
    expect(run("--always").ran).toEqual(["pictures", "app"]);
  });

  it("--check says whether a build is due without building", () => {
    expect(run("--check")).toMatchObject({ status: 1, ran: [] });
    run();
    expect(run("--check")).toMatchObject({ status: 0, ran: [] });
  });

  it("a failed build leaves no stamp, so the next start tries again", () => {
    write("node_modules/.bin/react-router", `#!/bin/sh\necho app >> ran\nexit 3\n`);
    const failed = run();
    expect(failed.status).toBe(3);
    expect(fs.existsSync(path.join(project, "build/.inputs-hash"))).toBe(false);
    expect(run().ran).toEqual(["pictures", "app"]);
  });
});
