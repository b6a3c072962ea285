import { Command } from "commander";
import { acceptAdmin, handoverAdmin, type AdminResult } from "../../index.js";
import { withCommonOptions, type CommonOptions } from "../connection.js";
import { scrub } from "../errors.js";
import { printSummary } from "../output.js";
import { withStages } from "../progress.js";
import { context, programFromManifest } from "./context.js";

function summary(title: string, r: AdminResult) {
  const when = Object.entries(r.schedules).map(([k, t]) => [k, new Date(Number(t) * 1000).toISOString()]);
  printSummary(title, { transactions: r.txHashes.join(" ") || "none needed", ...Object.fromEntries(when) });
}

export function handoverCommand(): Command {
  const cmd = new Command("handover")
    .summary("move DEFAULT_ADMIN_ROLE of every contract to a new admin (two steps)")
    .description(
      "Two-step admin transfer (OpenZeppelin AccessControlDefaultAdminRules) on every contract of a " +
        "program: `begin` is signed by the current admin, `accept` by the new admin once the admin delay has passed.",
    );
  const begin = new Command("begin")
    .description("start the transfer of DEFAULT_ADMIN_ROLE to --new-admin (signed by the current admin)")
    .requiredOption("--brand <name>", "the program's brand (looked up in the manifest)")
    .requiredOption("--new-admin <address>", "the new admin, e.g. a multisig");
  withCommonOptions(begin).action(async (o: CommonOptions & { brand: string; newAdmin: string }) => {
    const ctx = await context(o, true);
    const program = await programFromManifest(ctx, o.brand);
    const result = await withStages(
      ["handover"],
      ctx.store,
      (store) => handoverAdmin(program, o.newAdmin, ctx.signer!, { store }),
      { unreported: "done", redact: scrub },
    );
    summary(`admin transfer to ${o.newAdmin} started; the new admin accepts after:`, result);
  });
  const accept = new Command("accept")
    .description("accept the pending transfer (signed by the new admin)")
    .requiredOption("--brand <name>", "the program's brand (looked up in the manifest)");
  withCommonOptions(accept).action(async (o: CommonOptions & { brand: string }) => {
    const ctx = await context(o, true);
    const program = await programFromManifest(ctx, o.brand);
    const result = await withStages(["accept"], ctx.store, (store) => acceptAdmin(program, ctx.signer!, { store }), {
      unreported: "done",
      redact: scrub,
    });
    summary(`admin transfer accepted: ${result.program.admin} is the admin`, result);
  });
  return cmd.addCommand(begin).addCommand(accept);
}
