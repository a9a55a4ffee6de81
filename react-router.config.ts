import type { Config } from "@react-router/dev/config";

export default {
  // Every page is rendered on the server per request: the texts come from content/ at run time
  // and each response carries its own CSP nonce (docs/decisions/003-rendering.md).
  ssr: true,
} satisfies Config;
