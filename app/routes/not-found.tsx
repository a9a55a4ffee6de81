import { data } from "react-router";
import { NotFound } from "~/components/layout/not-found";

export function loader() {
  return data(null, { status: 404 });
}

export default NotFound;
