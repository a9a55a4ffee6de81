import { z } from "zod/v4";

// What "zod" is in the browser's build (vite.config.ts): zod itself, told not to compile its
// parsers with `new Function`. The Content-Security-Policy allows no eval (script-src has no
// 'unsafe-eval'), so zod's check whether it may was blocked and reported on every page with a form
// (Chrome's Issues panel; Lighthouse takes best-practice points for it). The forms' schemas are
// small: the compiled parsers gained nothing there. The server keeps them.
z.config({ jitless: true });

export * from "zod/v4";
export { z, z as default };
