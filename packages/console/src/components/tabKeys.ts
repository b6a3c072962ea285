/**
 * The WAI-ARIA tabs pattern's keys (https://www.w3.org/WAI/ARIA/apg/patterns/tabs/): arrows move
 * to the previous or next tab, wrapping round; Home and End to the first and last. Any other key
 * is not the tab list's (null), so the browser keeps it.
 */
export function nextTabIndex(key: string, current: number, count: number): number | null {
  if (count <= 0) return null;
  switch (key) {
    case "ArrowRight":
    case "ArrowDown":
      return (current + 1) % count;
    case "ArrowLeft":
    case "ArrowUp":
      return (current - 1 + count) % count;
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}

/** The tab a URL names, or the first one when it names none or one that does not exist. */
export function tabFromUrl<T extends string>(value: string | null, ids: readonly T[]): T {
  return ids.find((id) => id === value) ?? ids[0]!;
}
