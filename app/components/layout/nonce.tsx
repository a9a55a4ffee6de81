import { createContext, useContext } from "react";

/**
 * This response's Content-Security-Policy nonce, for the few inline scripts. The server provides
 * it; in the browser it is "" (browsers hide nonce attributes from the page, so "" is what the
 * rendered markup holds and hydration matches).
 */
export const NonceContext = createContext("");

export function useNonce(): string {
  return useContext(NonceContext);
}
