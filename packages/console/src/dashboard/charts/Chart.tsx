import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { UserText } from "../../components/format/UserText";
import { escapeHidden } from "../../components/format/text";
import { stepAfter, TIME_INCRS, timeDomain, timeTicks } from "./plot";

export interface ChartSeries {
  label: string;
  values: (number | null)[];
}

export interface ChartProps {
  title: string;
  kind: "line" | "bars";
  /** Times in seconds for a line; for bars, one category label per bar (drawn on the canvas as text). */
  x: number[] | string[];
  series: ChartSeries[];
  /** The y axis's unit ("SP", "pSP"), written beside it; none when the series mix units. */
  yUnit?: string;
  /** Bars of each category stacked, in series order from the bottom. */
  stacked?: boolean;
  /** The same figures as text: a table behind a disclosure, for screen readers and copying. */
  figures: { columns: string[]; rows: string[][] };
  testId: string;
  /** Said instead of an empty picture. */
  empty: string;
}

const COLORS = ["#2563eb", "#16a34a", "#dc2626", "#9333ea", "#ea580c", "#0891b2"];
const HEIGHT = 220;

/**
 * A uPlot chart: canvas only, so labels are drawn as text (no HTML tooltip, uPlot's own legend
 * off); the legend and the figures are React text. Sized to its container, so it never widens a page.
 */
export default function Chart(props: ChartProps) {
  if (props.x.length === 0)
    return (
      <figure className="chart" data-testid={props.testId}>
        <figcaption>{props.title}</figcaption>
        <p className="muted">{props.empty}</p>
      </figure>
    );
  return <Plot {...props} />;
}

function Plot({ title, kind, x, series, yUnit, stacked, figures, testId }: ChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const key = JSON.stringify([kind, x, series, yUnit, stacked]);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const categories = kind === "bars" ? (x as string[]).map(escapeHidden) : null;
    const xs = categories ? categories.map((_, i) => i) : (x as number[]);
    // Stacked bars: each drawn as the running sum, tallest first, so the shorter ones sit in front.
    let ys = series.map((s) => s.values);
    if (stacked) ys = ys.map((_, i) => xs.map((_, j) => ys.slice(0, i + 1).reduce((a, v) => a + (v[j] ?? 0), 0)));
    const order = series.map((_, i) => i);
    if (stacked) order.reverse();
    // Lines are running totals: drawn as steps, a dot at each real point (./plot).
    const line = categories ? null : stepAfter(xs, ys);
    const domain = timeDomain(xs);
    const bars = uPlot.paths.bars!({ size: [0.6, 64] });
    const opts: uPlot.Options = {
      width: Math.max(240, el.clientWidth),
      height: HEIGHT,
      legend: { show: false },
      cursor: { show: false },
      scales: {
        x: categories ? { time: false, range: [-0.5, categories.length - 0.5] } : { time: true, range: () => domain! },
        y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.1 : 1] },
      },
      axes: [
        categories
          ? { splits: () => xs, values: (_u, splits) => splits.map((i) => categories[i] ?? "") }
          : // Room for "04:57:42" between ticks: at uPlot's default spacing a span of seconds overlapped.
            { space: 80, incrs: TIME_INCRS, values: (_u, splits) => timeTicks(splits) },
        yUnit ? { size: 70, label: yUnit, labelSize: 20 } : { size: 70 },
      ],
      series: [
        {},
        ...order.map((i) => ({
          label: series[i]!.label,
          stroke: COLORS[i % COLORS.length],
          fill: kind === "bars" ? COLORS[i % COLORS.length] : undefined,
          width: 2,
          points: line ? { show: true, filter: line.marks } : { show: false },
          ...(kind === "bars" ? { paths: bars } : {}),
        })),
      ],
    };
    const data = line ? [line.x, ...order.map((i) => line.ys[i]!)] : [xs, ...order.map((i) => ys[i]!)];
    const plot = new uPlot(opts, data as uPlot.AlignedData, el);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(240, el.clientWidth), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [key]);

  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <div
        ref={ref}
        className="chart-canvas"
        role="img"
        aria-label={`${title}${yUnit ? `, in ${yUnit}` : ""}; the figures are in the table below`}
      />
      <ul className="chart-legend" aria-label={`${title}: legend`}>
        {series.map((s, i) => (
          <li key={i}>
            <span className="swatch" style={{ background: COLORS[i % COLORS.length] }} aria-hidden="true" />
            <UserText text={s.label} />
          </li>
        ))}
      </ul>
      <details>
        <summary>Figures</summary>
        {/* A wide table scrolls inside its box; focusable so a keyboard can scroll it too. */}
        <div className="table-scroll" tabIndex={0} role="region" aria-label={`${title}: figures`}>
          <table className="table">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr>
                {figures.columns.map((c) => (
                  <th key={c} scope="col">
                    <UserText text={c} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {figures.rows.map((r, i) => (
                <tr key={i}>
                  {r.map((cell, j) => (
                    <td key={j}>
                      <UserText text={cell} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
