import { PointsApiError } from "./errors.js";

/** A page of a cursor-paginated list: its items and the cursor of the next page (null on the last). */
export interface Page {
  nextCursor: string | null;
}

/**
 * Every item of a cursor-paginated list, in the list's order: the next page is fetched only when the
 * caller iterates that far, so `break` stops the requests. Each page request carries the caller's options
 * (retries, timeout, signal) as a single call would.
 */
export async function* paginate<P extends Page, T>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  items: (page: P) => readonly T[],
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* items(page);
    if (page.nextCursor === null) return;
    // A cursor that does not move would repeat the same page forever.
    if (page.nextCursor === cursor) {
      throw new PointsApiError("NETWORK", "the API answered the same page cursor twice", {
        details: { cursor },
      });
    }
    cursor = page.nextCursor;
  }
}
