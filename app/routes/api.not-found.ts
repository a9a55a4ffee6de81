import { apiRoute } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

// Any other address under /api/, whatever the method: the API's own 404, JSON like every other API
// answer ({error, code: "not-found"}, not stored), where it used to be the site's not-found page in
// HTML, which a script cannot read and which took a whole page's render to say so.
const notFound = () =>
  apiRoute("Answering an unknown API address", async () => {
    throw new AppError("not-found", "There is nothing at this address in the API.");
  });

export const loader = notFound;
export const action = notFound;
