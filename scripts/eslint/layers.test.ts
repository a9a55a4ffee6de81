import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The boundary rule, run through the project's own ESLint configuration on files that do not
// exist: what each would be told if someone wrote it.
const root = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: root });

async function layerErrors(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === "layers/layers").map((m) => m.message);
}

describe("the one-way import rule", () => {
  it("refuses a feature importing another feature, by a relative path or the ~ alias", async () => {
    const relative = await layerErrors(
      "app/features/booking/probe.server.ts",
      'export { listEvents } from "../events/events.server";\n',
    );
    expect(relative).toEqual([expect.stringContaining("features/booking may not import features/events")]);
    const aliased = await layerErrors(
      "app/features/booking/probe.server.ts",
      'import { listEvents } from "~/features/events/events.server";\nexport const a = listEvents;\n',
    );
    expect(aliased).toHaveLength(1);
  });

  it("lets a feature import itself, by either path", async () => {
    expect(
      await layerErrors(
        "app/features/booking/components/probe.tsx",
        'import { bookingMessages } from "~/features/booking/schema";\nimport { maxTickets } from "../pricing";\nexport const a = [bookingMessages, maxTickets];\n',
      ),
    ).toEqual([]);
  });

  it("refuses shared UI importing a feature, even for a type", async () => {
    expect(
      await layerErrors(
        "app/components/ui/probe.tsx",
        'import type { Project } from "~/features/content/schema";\nexport type A = Project;\n',
      ),
    ).toEqual([expect.stringContaining("components (ui) may not import features/content (feature)")]);
  });

  it("refuses infra importing a feature and lib importing infra", async () => {
    expect(
      await layerErrors(
        "app/infra/probe.server.ts",
        'export { startBooking } from "../features/booking/booking.server";\n',
      ),
    ).toHaveLength(1);
    expect(await layerErrors("app/lib/probe.ts", 'export { getConfig } from "~/infra/config.server";\n')).toHaveLength(
      1,
    );
  });

  it("refuses lib importing the database schema, by a relative path or the ~db alias", async () => {
    expect(
      await layerErrors("app/lib/probe.ts", 'import { events } from "../../db/schema";\nexport const a = events;\n'),
    ).toEqual([expect.stringContaining("lib (lib) may not import db (infra)")]);
    expect(
      await layerErrors("app/lib/probe.ts", 'import { events } from "~db/schema";\nexport const a = events;\n'),
    ).toEqual([expect.stringContaining("lib (lib) may not import db (infra)")]);
  });

  it("lets a route combine features, infra and lib", async () => {
    expect(
      await layerErrors(
        "app/routes/probe.tsx",
        'import { listEvents } from "~/features/events/events.server";\nimport { startBooking } from "~/features/booking/booking.server";\nimport { formatPounds } from "~/lib/money";\nexport const a = [listEvents, startBooking, formatPounds];\n',
      ),
    ).toEqual([]);
  });
});
