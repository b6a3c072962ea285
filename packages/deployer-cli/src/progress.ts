/**
 * Progress of the library's stages: a live task list (listr2) on a terminal, plain lines
 * otherwise (logs, CI, pipes). The library reports stages to its DeploymentStore, so the CLI
 * wraps the manifest store in one that also feeds the display.
 */
import { Listr } from "listr2";
import type { DeploymentStore } from "@points/deployer";

type StageStatus = "done" | "failed" | "skipped";
interface TxLike {
  hash: string;
  nonce?: number;
  description?: string;
}

interface Stage {
  name: string;
  status?: StageStatus;
  started?: number;
  settle: (s: { status: StageStatus; note?: string }) => void;
  fail: (e: Error) => void;
  done: Promise<{ status: StageStatus; note?: string }>;
  onLine?: (line: string) => void;
}

export interface Output {
  line(text: string): void;
}

export const stdoutOutput: Output = { line: (t) => process.stdout.write(`${t}\n`) };

/** True when the live display should be used. */
export function interactive(): boolean {
  return Boolean(process.stdout.isTTY) && process.env.CI !== "true";
}

let quiet = false;
/** No plain progress lines (--json: stdout carries only the result). */
export function setQuiet(on: boolean): void {
  quiet = on;
}

function plainOutput(): Output | undefined {
  return quiet ? undefined : stdoutOutput;
}

function short(hash: string): string {
  return hash.length > 14 ? `${hash.slice(0, 10)}…${hash.slice(-4)}` : hash;
}

export class StageTracker {
  private readonly stages = new Map<string, Stage>();
  private readonly t0 = Date.now();

  constructor(
    readonly names: string[],
    private readonly plain: Output | undefined,
    private readonly unreported: StageStatus = "skipped",
  ) {
    for (const name of names) {
      let settle!: Stage["settle"];
      let fail!: Stage["fail"];
      const done = new Promise<{ status: StageStatus; note?: string }>((res, rej) => {
        settle = res;
        fail = rej;
      });
      done.catch(() => undefined); // observed through the task list or wait()
      this.stages.set(name, { name, settle, fail, done });
    }
  }

  private stage(name: string): Stage {
    let s = this.stages.get(name);
    if (!s) {
      // A stage the CLI did not expect: show it in plain mode, ignore it in the task list.
      const settle = () => undefined;
      s = { name, settle, fail: settle, done: Promise.resolve({ status: "done" }) };
      this.stages.set(name, s);
    }
    return s;
  }

  private say(stage: string, text: string): void {
    this.plain?.line(`[${stage}] ${text}`);
    this.stage(stage).onLine?.(text);
  }

  started(stage: string): void {
    this.stage(stage).started = Date.now();
    this.plain?.line(`[${stage}] started`);
  }

  transaction(stage: string, tx: TxLike): void {
    const nonce = tx.nonce === undefined ? "" : ` nonce ${tx.nonce}`;
    this.say(stage, `tx ${short(tx.hash)}${nonce}${tx.description ? ` ${tx.description}` : ""}`);
  }

  addresses(stage: string, addresses: Record<string, unknown>): void {
    const list = Object.entries(addresses)
      .filter(([, v]) => typeof v === "string")
      .map(([k, v]) => `${k}=${v}`);
    if (list.length) this.say(stage, list.join(" "));
  }

  finished(stage: string, status: StageStatus, error?: string): void {
    const s = this.stage(stage);
    s.status = status;
    const secs = s.started ? ` (${((Date.now() - s.started) / 1000).toFixed(1)}s)` : "";
    this.plain?.line(`[${stage}] ${status}${secs}${error ? `: ${error}` : ""}`);
    if (status === "failed") s.fail(new Error(error ?? `${stage} failed`));
    else s.settle({ status });
  }

  /** Settles every stage the work never reported: `unreported` on success, failed on error. */
  close(error?: Error): void {
    for (const s of this.stages.values()) {
      if (s.status) continue;
      s.status = error ? "failed" : this.unreported;
      // In plain mode a failure is printed once, by the caller's error line.
      if (!error) this.plain?.line(`[${s.name}] ${s.status}`);
      if (error) s.fail(error);
      else s.settle({ status: this.unreported });
      if (error) break; // later stages never ran: leave them pending in the task list
    }
    this.plain?.line(`${error ? "failed" : "finished"} in ${((Date.now() - this.t0) / 1000).toFixed(1)}s`);
  }

  /** A task list with one task per expected stage, each ending when its stage ends. */
  listr() {
    return new Listr(
      this.names.map((name) => ({
        title: name,
        task: async (_ctx: unknown, task) => {
          const s = this.stage(name);
          s.onLine = (line) => (task.output = line);
          const { status } = await s.done;
          if (status === "skipped") task.skip(`${name} (skipped)`);
        },
        rendererOptions: { persistentOutput: true, outputBar: Infinity },
      })),
      { concurrent: false, exitOnError: true, rendererOptions: { collapseErrors: false } },
    );
  }
}

/** A store that forwards everything to `inner` and reports stage events to `tracker`. */
export function reportingStore<S extends DeploymentStore>(inner: S, tracker: StageTracker): S {
  type Args = unknown[];
  const hooks: Record<string, (...a: Args) => void> = {
    stageStarted: (_ctx, stage) => tracker.started(String(stage)),
    stageTransaction: (_ctx, stage, tx) => tracker.transaction(String(stage), tx as TxLike),
    stageAddresses: (_ctx, stage, addr) => tracker.addresses(String(stage), addr as Record<string, unknown>),
    stageFinished: (_ctx, stage, status, error) =>
      tracker.finished(String(stage), status as StageStatus, error === undefined ? undefined : String(error)),
  };
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      const hook = typeof prop === "string" ? hooks[prop] : undefined;
      if (!hook) return value.bind(target);
      return async (...args: Args) => {
        // Persist first: the display must never claim what the manifest does not hold.
        const result = await value.apply(target, args);
        hook(...args);
        return result;
      };
    },
  });
}

type Redact = (s: string) => string;

async function runTracked<T>(tracker: StageTracker, live: boolean, work: Promise<T>, redact?: Redact): Promise<T> {
  const display = live ? tracker.listr().run() : Promise.resolve();
  const result = work.then(
    (value) => {
      tracker.close();
      return value;
    },
    (error: unknown) => {
      const text = String((error as Error)?.message ?? error).split("\n")[0] ?? "";
      tracker.close(new Error(redact ? redact(text) : text));
      throw error;
    },
  );
  // The display settles from the tracker; the original error is what the caller gets.
  await Promise.allSettled([display, result]);
  return result;
}

/**
 * Runs `work` (given the reporting store) under a progress display of `stages`. Resolves or
 * rejects exactly like `work`.
 */
export function withStages<S extends DeploymentStore, T>(
  stages: string[],
  store: S,
  work: (store: S) => Promise<T>,
  opts: { unreported?: StageStatus; redact?: Redact } = {},
): Promise<T> {
  const live = interactive() && !quiet;
  const tracker = new StageTracker(stages, live ? undefined : plainOutput(), opts.unreported);
  return runTracked(
    tracker,
    live,
    Promise.resolve().then(() => work(reportingStore(store, tracker))),
    opts.redact,
  );
}

/** One step without library stages (upgrade, handover, verify), in the same two display modes. */
export function withStep<T>(title: string, work: () => Promise<T>, redact?: Redact): Promise<T> {
  const live = interactive() && !quiet;
  const tracker = new StageTracker([title], live ? undefined : plainOutput(), "done");
  tracker.started(title);
  return runTracked(tracker, live, Promise.resolve().then(work), redact);
}
