import { describe, it } from "node:test";
import assert from "node:assert/strict";

// By a computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const source = "../../src/dashboard/charts/plot.ts";
const p = (await import(source)) as {
  stepAfter(x: number[], ys: (number | null)[][]): { x: number[]; ys: (number | null)[][]; marks: number[] };
  timeDomain(x: number[]): [number, number] | null;
  timeTicks(splits: number[]): string[];
  TIME_INCRS: number[];
};
const { timeTicks } = p;

const secs = (t: string) => Date.parse(t) / 1000;
const T0 = secs("2026-11-23T10:00:00Z");
const MIN = 60;

describe("what a line chart draws: running totals as steps, on a time axis of their own span", () => {
  it("stepAfter_drawsAFundingAsAVerticalJumpAtItsBlockTime_notARampFromThePreviousPoint", () => {
    // Burn-down: 460 available, then a 10 SP top-up 10 minutes later, then 5 issued 20 minutes after that.
    const line = p.stepAfter([T0, T0 + 10 * MIN, T0 + 30 * MIN], [[460, 470, 465]]);
    assert.deepEqual(line.x, [T0, T0 + 10 * MIN, T0 + 10 * MIN, T0 + 30 * MIN, T0 + 30 * MIN]);
    assert.deepEqual(line.ys, [[460, 460, 470, 470, 465]]);
    // Dots only where the ledger has a point, not at the corners.
    assert.deepEqual(line.marks, [0, 2, 4]);
    // Each change is vertical: the two points drawn either side of it share their time.
    for (const i of [1, 3]) {
      assert.equal(line.x[i], line.x[i + 1]);
      assert.notEqual(line.ys[0]![i], line.ys[0]![i + 1]);
    }
  });

  it("stepAfter_holdsEachSeriesOwnValue_andKeepsAGapBeforeASeriesStarts", () => {
    const line = p.stepAfter(
      [T0, T0 + MIN],
      [
        [100, 90],
        [null, 5],
      ],
    );
    assert.deepEqual(line.ys, [
      [100, 100, 90],
      [null, null, 5],
    ]);
  });

  it("stepAfter_ofOnePoint_isThatPoint", () => {
    assert.deepEqual(p.stepAfter([T0], [[500]]), { x: [T0], ys: [[500]], marks: [0] });
  });

  it("timeDomain_ofOnePoint_isAnHourEitherSide_notAnAxisRunningYearsAhead", () => {
    assert.deepEqual(p.timeDomain([T0]), [T0 - 3600, T0 + 3600]);
  });

  it("timeDomain_ofTwoPoints_isTheirOwnSpan", () => {
    assert.deepEqual(p.timeDomain([T0, T0 + 10 * MIN]), [T0, T0 + 10 * MIN]);
    assert.equal(p.timeDomain([]), null);
  });
});

describe("the time axis reads as times and dates, not :00.000 fragments", () => {
  // Built in local time: the ticks use the operator's clock.
  const local = (d: number, h: number, m: number, s = 0) => new Date(2026, 10, d, h, m, s).getTime() / 1000;

  it("timeTicks_withinADay_timeOfDay", () => {
    assert.deepEqual(timeTicks([local(29, 14, 5), local(29, 14, 10), local(29, 14, 15)]), ["14:05", "14:10", "14:15"]);
  });

  it("timeTicks_secondsApart_keepTheSeconds", () => {
    assert.deepEqual(timeTicks([local(29, 4, 29, 31), local(29, 4, 29, 32)]), ["04:29:31", "04:29:32"]);
  });

  it("timeTicks_overSeveralDays_theDate", () => {
    assert.deepEqual(timeTicks([local(27, 0, 0), local(28, 0, 0), local(29, 0, 0)]), ["27 Nov", "28 Nov", "29 Nov"]);
  });

  it("timeTicks_atEveryStepTheAxisMayTake_labelsNeverRepeat", () => {
    // uPlot's own steps included half a second: a 6-second span read "05:09:08 05:09:08 05:09:09 …".
    assert.equal(p.TIME_INCRS[0], 1);
    for (const step of p.TIME_INCRS) {
      const ticks = timeTicks([0, 1, 2, 3, 4].map((i) => local(1, 0, 0) + i * step));
      assert.equal(new Set(ticks).size, 5, `${step} s apart: ${ticks.join(" ")}`);
    }
  });

  it("timeTicks_overHalfAYear_theDateWithItsYear", () => {
    assert.deepEqual(timeTicks([new Date(2026, 0, 1).getTime() / 1000, new Date(2027, 0, 1).getTime() / 1000]), [
      "1 Jan 2026",
      "1 Jan 2027",
    ]);
  });

  it("timeTicks_betweenOneAndTwoDays_dateAndTime", () => {
    assert.deepEqual(timeTicks([local(28, 12, 0), local(29, 18, 0)]), ["28 Nov 12:00", "29 Nov 18:00"]);
  });
});
