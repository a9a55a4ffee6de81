import { data } from "react-router";
import { AppError } from "~/lib/errors";
import { httpStatus, logUnexpected } from "./api.server";

/** What a page's error boundary receives: an AppError's message, or for an unexpected failure only the reference. */
export type PageError = { message: string } | { ref: string };

function isRouterAnswer(error: unknown) {
  // A redirect or a Response, or `data(…, {status})` thrown on purpose (a 404).
  return error instanceof Response || (error as { type?: string } | null)?.type === "DataWithResponseInit";
}

/**
 * Runs a page's loader or action. What the page throws on purpose goes through; an AppError
 * "not-found" becomes the 404 page, any other its status with its message; anything else is
 * logged under a reference and becomes a 500 whose error boundary shows only that reference
 * (app/components/layout/error-page.tsx).
 */
export function pageWork<Args, Result>(where: string, work: (args: Args) => Promise<Result>) {
  return async (args: Args): Promise<Result> => {
    try {
      return await work(args);
    } catch (error) {
      if (isRouterAnswer(error)) throw error;
      if (error instanceof AppError) {
        if (error.code === "not-found") throw data(null, { status: 404 });
        throw data({ message: error.message } satisfies PageError, { status: httpStatus(error.code) });
      }
      const ref = logUnexpected(error, where);
      throw data({ ref } satisfies PageError, { status: 500 });
    }
  };
}
