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

/**
 * The steps the time axis may put between ticks, in seconds: whole seconds up to a year. uPlot's
 * own list starts at a millisecond, so a span of a few seconds got ticks half a second apart whose
 * labels (to the second) repeated.
 */
export const TIME_INCRS = [
  1,
  2,
  5,
  10,
  15,
  30,
  60,
  120,
  300,
  600,
  900,
  1800,
  3600,
  7200,
  10_800,
  21_600,
  43_200,
  86_400,
  2 * 86_400,
  7 * 86_400,
  14 * 86_400,
  30 * 86_400,
  91 * 86_400,
  182 * 86_400,
  365 * 86_400,
];

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n: number) => String(n).padStart(2, "0");

/**
 * The time axis's tick labels (times in seconds, local time), worded for the span they cover:
 * within a day the time of day ("14:05", with seconds when the ticks are under a minute apart),
 * over several days with ticks a day or more apart the date ("29 Nov"; "29 Nov 2026" over half a
 * year and more), otherwise both ("29 Nov 14:05").
 */
export function timeTicks(splits: readonly number[]): string[] {
  const span = splits.length > 1 ? splits[splits.length - 1]! - splits[0]! : 0;
  const step = splits.length > 1 ? span / (splits.length - 1) : 60;
  return splits.map((t) => {
    const d = new Date(t * 1000);
    const year = span >= 180 * 86_400 ? ` ${d.getFullYear()}` : "";
    const date = `${d.getDate()} ${MONTHS[d.getMonth()]}${year}`;
    const time = `${two(d.getHours())}:${two(d.getMinutes())}${step < 60 ? `:${two(d.getSeconds())}` : ""}`;
    if (span < 86_400) return time;
    // Ticks a day or more apart over days: the date alone (a local day can be 23 hours long).
    return span >= 2 * 86_400 && step >= 82_800 ? date : `${date} ${time}`;
  });
}
