// Every list staff see is cut into pages of 50 rows: a page of a thousand bookings would be slow
// on a phone and useless to read.

export const pageSize = 50;

export interface Paged<T> {
  rows: T[];
  total: number;
  /** 1-based, clamped to the pages there are. */
  page: number;
  pages: number;
  offset: number;
  limit: number;
}

/** The page a `?page=` asks for, as a whole number from 1 (anything else is page 1). */
export function requestedPage(value: string | null | undefined): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** Where page `page` of `total` rows starts, and the page's rows once fetched. */
export function pageOf<T>(rows: T[], total: number, page: number): Paged<T> {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  return { rows, total, page: current, pages, offset: (current - 1) * pageSize, limit: pageSize };
}

/** Page `page` of a list already in memory. */
export function slicePage<T>(all: T[], page: number): Paged<T> {
  const paged = pageOf<T>([], all.length, page);
  return { ...paged, rows: all.slice(paged.offset, paged.offset + paged.limit) };
}
