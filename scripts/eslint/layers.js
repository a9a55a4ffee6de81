// The one-way import rule (docs/project-structure.md): each file belongs to a layer, and may
// import only from its own layer or the ones below it. Paths are resolved ("~/x", "~db/x", "../x"),
// so a relative import cannot slip past the rule the way a pattern on the import's text can.
//
//   lib (app/lib, app/styles)           pure helpers and shared types
//   ui (app/components)                 shared presentational pieces: lib only
//   infra (app/infra, db)               configuration, database, providers, e-mail
//   feature (app/features/<name>)       one feature; never another feature
//   app (app/routes, root, entry)       routes combine features
//   server (server)                     the process and the wiring of services
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const ranks = { lib: 0, ui: 1, infra: 2, feature: 3, app: 4, server: 5 };
/** What each layer may import, besides itself. */
const allowed = {
  lib: [],
  ui: ["lib"],
  infra: ["lib"],
  feature: ["lib", "ui", "infra"],
  app: ["lib", "ui", "infra", "feature"],
  server: ["lib", "ui", "infra", "feature", "app"],
};

/** The layer of a file in the repository (and, for a feature, its name); undefined outside the layers. */
export function layerOf(file) {
  const relative = path.relative(root, file).split(path.sep).join("/");
  const parts = relative.split("/");
  if (parts[0] === "db") return { layer: "infra", name: "db" };
  if (parts[0] === "server") return { layer: "server", name: "server" };
  if (parts[0] !== "app") return undefined;
  switch (parts[1]) {
    case "lib":
    case "styles":
      return { layer: "lib", name: "lib" };
    case "components":
      return { layer: "ui", name: "components" };
    case "infra":
      return { layer: "infra", name: "infra" };
    case "features":
      return parts.length > 3 ? { layer: "feature", name: `features/${parts[2]}` } : undefined;
    default:
      return { layer: "app", name: "app" };
  }
}

function resolve(from, specifier) {
  const bare = specifier.split("?")[0];
  if (bare.startsWith("~/")) return path.join(root, "app", bare.slice(2));
  if (bare.startsWith("~db/")) return path.join(root, "db", bare.slice(4));
  if (bare.startsWith("./") || bare.startsWith("../")) return path.resolve(path.dirname(from), bare);
  return undefined; // a package
}

const rule = {
  meta: {
    type: "problem",
    docs: { description: "Imports flow one way: lib, ui -> infra -> features -> routes -> server." },
    schema: [],
    messages: {
      upward:
        "{{from}} ({{fromLayer}}) may not import {{to}} ({{toLayer}}): imports flow one way, lib and ui -> infra -> features -> routes -> server (docs/project-structure.md).",
      crossFeature:
        "{{from}} may not import {{to}}: a feature never imports another feature; combine them in a route, or move what both need down to infra or lib (docs/project-structure.md).",
    },
  },
  create(context) {
    const file = context.filename;
    const source = layerOf(file);
    if (!source) return {};
    function check(node, specifier) {
      if (typeof specifier !== "string") return;
      const target = resolve(file, specifier);
      if (!target) return;
      const destination = layerOf(target);
      if (!destination) return;
      const data = {
        from: source.name,
        fromLayer: source.layer,
        to: destination.name,
        toLayer: destination.layer,
      };
      if (destination.layer === source.layer) {
        if (source.layer === "feature" && destination.name !== source.name) {
          context.report({ node, messageId: "crossFeature", data });
        }
        return;
      }
      if (!allowed[source.layer].includes(destination.layer)) context.report({ node, messageId: "upward", data });
    }
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node.source, node.source.value),
    };
  },
};

export default { rules: { layers: rule }, ranks };
