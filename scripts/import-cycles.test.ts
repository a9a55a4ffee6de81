import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// No module of the site imports itself through others: in a cycle, what a module sees at load time
// depends on which one was loaded first, and neither can be read or moved without the other. Every
// static import and re-export counts, types too (under verbatimModuleSyntax an inline `{ type X }`
// import stays a bare import at run time); an import() runs later and does not count. Specifiers
// outside the three folders (tests/support, React Router's generated ./+types, CSS) are left out.
const root = path.resolve(import.meta.dirname, "..");
const folders = ["app", "server", "db"];
const extensions = [".ts", ".tsx"];

/** The file a specifier names, as tsconfig.json's paths and the bundler resolve it; undefined for a package. */
function resolve(from: string, specifier: string, exists: (file: string) => boolean): string | undefined {
  const bare = specifier.split("?")[0]!;
  let base: string;
  if (bare.startsWith("~/")) base = path.join(root, "app", bare.slice(2));
  else if (bare.startsWith("~db/")) base = path.join(root, "db", bare.slice(4));
  else if (bare.startsWith("./") || bare.startsWith("../")) base = path.resolve(path.dirname(from), bare);
  else return undefined;
  const candidates = [
    base,
    ...extensions.map((extension) => base + extension),
    ...extensions.map((extension) => path.join(base, `index${extension}`)),
  ];
  return candidates.find((file) => extensions.includes(path.extname(file)) && exists(file));
}

/** The specifiers a module imports or re-exports statically. */
function staticImports(file: string, source: string): string[] {
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  for (const statement of parsed.statements) {
    if (
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      specifiers.push(statement.moduleSpecifier.text);
    }
  }
  return specifiers;
}

/** Each file's imports among the given files (paths relative to the repository). */
function importGraph(sources: Map<string, string>): Map<string, string[]> {
  const exists = (file: string) => sources.has(path.relative(root, file));
  const graph = new Map<string, string[]>();
  for (const [file, source] of sources) {
    const absolute = path.join(root, file);
    const targets = staticImports(absolute, source)
      .map((specifier) => resolve(absolute, specifier, exists))
      .filter((target): target is string => target !== undefined)
      .map((target) => path.relative(root, target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** One cycle through each strongly connected set of files, as "a → b → a" (Tarjan's algorithm). */
function cycles(graph: Map<string, string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[] = [];

  function connect(file: string) {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const members = new Set<string>();
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.add(member);
    } while (member !== file);
    if (members.size > 1 || graph.get(file)?.includes(file)) found.push(cycleThrough(file, members));
  }

  /** The shortest way from a file back to itself inside its strongly connected set. */
  function cycleThrough(start: string, members: Set<string>): string {
    const cameFrom = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const file = queue.shift()!;
      for (const next of graph.get(file) ?? []) {
        if (!members.has(next)) continue;
        if (next === start) {
          const way = [file];
          while (way[0] !== start) way.unshift(cameFrom.get(way[0]!)!);
          return [...way, start].join(" → ");
        }
        if (!cameFrom.has(next)) {
          cameFrom.set(next, file);
          queue.push(next);
        }
      }
    }
    throw new Error(`${start} is in a cycle with no way back to it`);
  }

  for (const file of [...graph.keys()].sort()) if (!index.has(file)) connect(file);
  return found.sort();
}

function siteSources(): Map<string, string> {
  const sources = new Map<string, string>();
  for (const folder of folders) {
    for (const entry of fs.readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !extensions.includes(path.extname(entry.name)) || entry.name.endsWith(".d.ts")) continue;
      const file = path.join(entry.parentPath, entry.name);
      sources.set(path.relative(root, file), fs.readFileSync(file, "utf8"));
    }
  }
  return sources;
}

describe("imports among app/, server/ and db/", () => {
  it("form no cycle", () => {
    const sources = siteSources();
    expect(sources.size).toBeGreaterThan(100);
    expect(cycles(importGraph(sources))).toEqual([]);
  });

  it("would name a cycle through aliases, relative paths and type-only imports", () => {
    const sources = new Map([
      ["app/lib/a.ts", 'import { b } from "./b";\nexport const a = b;\n'],
      ["app/lib/b.ts", 'import type { C } from "~/features/c/c";\nexport const b = 1 as C;\n'],
      ["app/features/c/c.ts", 'export type C = number;\nexport { a } from "../../lib/a.ts";\n'],
      ["app/lib/d.ts", 'import { e } from "~db/e";\nexport const d = e;\n'],
      ["db/e.ts", 'import { d } from "~/lib/d";\nexport const e = () => d;\n'],
      ["app/lib/f.ts", 'export const f = () => import("./a");\nimport { a } from "./a";\n'],
    ]);
    expect(cycles(importGraph(sources))).toEqual([
      "app/features/c/c.ts → app/lib/a.ts → app/lib/b.ts → app/features/c/c.ts",
      "app/lib/d.ts → db/e.ts → app/lib/d.ts",
    ]);
  });
});
