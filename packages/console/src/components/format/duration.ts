const UNITS: [number, string][] = [
  [86_400, "d"],
  [3_600, "h"],
  [60, "min"],
  [1, "s"],
];

/**
 * Seconds in words, every part kept: 3600 "1 h", 3120 "52 min", 93600 "1 d 2 h", 0 "none". The
 * one way the console words a duration (redeem delay, ready-in, waits).
 */
export function durationWords(seconds: number): string {
  if (seconds <= 0) return "none";
  const parts: string[] = [];
  let left = Math.round(seconds);
  for (const [size, unit] of UNITS) {
    const n = Math.floor(left / size);
    left -= n * size;
    if (n) parts.push(`${n} ${unit}`);
  }
  return parts.join(" ");
}
