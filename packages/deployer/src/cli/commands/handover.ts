import { Command } from "commander";
import { acceptAdmin, handoverAdmin } from "../../index.js";
import { withCommonOptions, type CommonOptions } from "../connection.js";
import { scrub } from "../errors.js";
import { printSummary } from "../output.js";
import { withStep } from "../progress.js";
import { context, programFromManifest } from "./context.js";

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
    const result = await withStep("handover begin", () => handoverAdmin(program, o.newAdmin, ctx.signer!), scrub);
    printSummary(`admin transfer to ${o.newAdmin} started; accept it with \`handover accept\``, result);
  });
  const accept = new Command("accept")
    .description("accept the pending transfer (signed by the new admin)")
    .requiredOption("--brand <name>", "the program's brand (looked up in the manifest)");
  withCommonOptions(accept).action(async (o: CommonOptions & { brand: string }) => {
    const ctx = await context(o, true);
    const program = await programFromManifest(ctx, o.brand);
    const result = await withStep("handover accept", () => acceptAdmin(program, ctx.signer!), scrub);
    printSummary("admin transfer accepted", result);
  });
  return cmd.addCommand(begin).addCommand(accept);
}
