import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

// `npm run walk`: the staff walk (tests/walks), on a phone and a laptop, with a screenshot of each
// step in reports/staff-walk/. Not part of `npm test`: each rule it passes through has its own test
// there; this repeats the walk a volunteer takes, for a person to look at (docs/testing.md).
export default defineConfig({ ...base, testDir: "tests/walks", reporter: [["list"]] });
