import { it as nodeIt, type TestContext } from "node:test";

/**
 * Steps of one walk that build on each other: after a failure the rest are skipped, not failed
 * again. `onFailure` runs once at the failing step (a screenshot), its own errors ignored.
 */
export function steps(onFailure: () => Promise<void> = async () => undefined) {
  let broken = false;
  return (name: string, fn: () => Promise<void> | void) =>
    nodeIt(name, async (t: TestContext) => {
      if (broken) return t.skip("an earlier step failed");
      try {
        await fn();
      } catch (e) {
        broken = true;
        await onFailure().catch(() => undefined);
        throw e;
      }
    });
}
