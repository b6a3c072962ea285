/**
 * What a line chart draws, computed before uPlot sees it (pure, so a unit test checks it). The
 * console's lines are running totals: a value holds until the next event changes it at once.
 */

/** A time axis for a single point: this much either side of it, in seconds. */
export const ONE_POINT_PAD = 3600;

/**
 * Step-after: each point after the first is drawn twice at its time, first with the values
 * before it (the corner), then with its own, so a change is a vertical jump at its block time
 * and not a ramp from the previous point. `marks` are the indices of the real points.
 */
export function stepAfter(x: readonly number[], ys: readonly (readonly (number | null)[])[]) {
  const out = { x: [] as number[], ys: ys.map(() => [] as (number | null)[]), marks: [] as number[] };
  x.forEach((t, i) => {
    if (i > 0) {
      out.x.push(t);
      ys.forEach((y, s) => out.ys[s]!.push(y[i - 1] ?? null));
    }
    out.marks.push(out.x.length);
    out.x.push(t);
    ys.forEach((y, s) => out.ys[s]!.push(y[i] ?? null));
  });
  return out;
}

/**
 * The time axis's range for times in ascending order (as uPlot takes them): the series' own span,
 * or for one point a small window around it (left to itself, uPlot gives a lone time point
 * 86,400,000 seconds, an axis running years ahead).
 */
export function timeDomain(x: readonly number[]): [number, number] | null {
  if (x.length === 0) return null;
  const [min, max] = [x[0]!, x[x.length - 1]!];
  return min === max ? [min - ONE_POINT_PAD, max + ONE_POINT_PAD] : [min, max];
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n: number) => String(n).padStart(2, "0");

/**
 * The time axis's tick labels (times in seconds, local time), worded for the span they cover:
 * within a day the time of day ("14:05", with seconds when the ticks are under a minute apart),
 * over several days the date ("29 Nov"), in between both ("29 Nov 14:05").
 */
export function timeTicks(splits: readonly number[]): string[] {
  const span = splits.length > 1 ? splits[splits.length - 1]! - splits[0]! : 0;
  const step = splits.length > 1 ? span / (splits.length - 1) : 60;
  return splits.map((t) => {
    const d = new Date(t * 1000);
    const date = `${d.getDate()} ${MONTHS[d.getMonth()]}`;
    const time = `${two(d.getHours())}:${two(d.getMinutes())}${step < 60 ? `:${two(d.getSeconds())}` : ""}`;
    if (span >= 2 * 86_400) return date;
    return span >= 86_400 ? `${date} ${time}` : time;
  });
}
