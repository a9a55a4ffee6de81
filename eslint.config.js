import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import layers from "./scripts/eslint/layers.js";

export default tseslint.config(
  {
    // tools/ holds packages of their own (tools/sample-art), outside the site and its checks.
    ignores: [
      "build/",
      ".react-router/",
      "node_modules/",
      "public/",
      "test-results/",
      "playwright-report/",
      "data/",
      "tools/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": [
        "error",
        { fixStyle: "inline-type-imports", disallowTypeAnnotations: false },
      ],
      "no-empty-pattern": "off",
    },
  },
  {
    // Scripts node runs as they are, without a TypeScript loader (scripts/build-if-changed.mjs).
    files: ["**/*.mjs"],
    languageOptions: { globals: globals.node },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "warn" },
  },
  {
    // React Router is one module in the script every page loads (vite.config.ts): whatever of it
    // any page uses, every first visit pays for (docs/decisions/051-every-page-pays-for-the-router.md).
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "react-router",
              importNames: ["Await"],
              message:
                "Wait for a loader's promise with React's use() inside <Suspense> (app/routes/confirmation.tsx).",
            },
            {
              name: "react-router",
              importNames: ["useSearchParams"],
              message: "Read the query with useQuery() (app/components/ui/use-query.ts).",
            },
          ],
        },
      ],
    },
  },
  {
    // Only the configuration module reads the environment (docs/decisions/001-stack.md), and only
    // the clock reads the time (docs/decisions/009-one-clock.md).
    files: ["app/**/*.{ts,tsx}", "db/**/*.ts"],
    ignores: ["app/infra/config.server.ts", "app/lib/clock.ts", "**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration through getConfig()." },
        { object: "Date", property: "now", message: "Take the time from the site's clock (services.clock)." },
        {
          property: "defaultNow",
          message: "Write times from the site's clock; no column defaults to the database's now().",
        },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: "Take the time from the site's clock (services.clock), passed in as `now`.",
        },
        {
          selector:
            "TemplateElement[value.raw=/\\bnow\\(\\)|\\bcurrent_(timestamp|date|time)\\b|\\blocaltimestamp\\b/i]",
          message: "Compare with the site's clock (a `now` parameter), not the database's now().",
        },
      ],
    },
  },
  {
    // Imports flow one way, and features never import one another (docs/project-structure.md).
    // Tests may reach across layers to put the parts together.
    files: ["app/**/*.{ts,tsx}", "db/**/*.ts", "server/**/*.ts"],
    ignores: ["**/*.test.{ts,tsx}"],
    plugins: { layers },
    rules: { "layers/layers": "error" },
  },
);
