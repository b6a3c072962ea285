import { z } from "zod";
import { Address, CONFIGURED_CHAINS, ConfiguredChainIdParam, PathText, TrimmedText } from "../../primitives.js";
import { defineRoute, routeFamily } from "../../route.js";
import { success } from "../../envelope.js";
import { DeskPolicy } from "../desk/common.js";

/**
 * The web console's backend: e-mail sign-in with a 6-digit code, a session cookie
 * (`points_session`), the onboarding wizard's progress kept on the server, chains and brand
 * availability. Every route answers the usual envelope.
 */

export const SESSION_COOKIE = "points_session";
export const WIZARD_STEPS = 9;

export const Email = z
  .string()
  .trim()
  .max(254, "must be at most 254 characters")
  .pipe(z.email("must be an e-mail address"))
  // One account per mailbox whatever the case the user types.
  .transform((v) => v.toLowerCase())
  .meta({
    description: "E-mail address (case-insensitive; surrounding spaces are ignored)",
    format: "email",
    example: "ada@example.com",
  });

export const LoginCode = z
  .string()
  .regex(/^[0-9]{6}$/, "must be the 6 digits of the code")
  .meta({ description: "The 6-digit code sent by e-mail", example: "042917" });

/** Brands: lowercase ASCII letters and digits, 1 to 32 characters (as BrandLib.sol checks on chain). */
export const BRAND_PATTERN = /^[a-z0-9]{1,32}$/;
export const Brand = z
  .string()
  .regex(BRAND_PATTERN, "must be 1-32 lowercase letters and digits")
  .meta({ description: "Lowercase alphanumeric, unique across programs", example: "acme" });

const Text = (max: number) => TrimmedText(max, false);
const Url = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2048);

/** The organization as far as the user has filled it (the console validates each step). */
export const WizardOrganization = z.strictObject({
  name: TrimmedText(200, true).optional(),
  website: Url.optional(),
  description: Text(2000).optional(),
});

export const WizardToken = z.strictObject({
  name: TrimmedText(64, true).optional(),
  symbol: z
    .string()
    .regex(/^[A-Za-z0-9]{1,11}$/, "must be 1-11 letters or digits")
    .optional(),
  description: Text(2000).optional(),
  logoUrl: Url.optional(),
  websiteUrl: Url.optional(),
});

/** The wizard's saved progress: the step the user is on and what they entered so far. */
export const Wizard = z
  .object({
    step: z.number().int().min(1).max(WIZARD_STEPS),
    wallet: Address.nullable(),
    organization: WizardOrganization.nullable(),
    chainId: z
      .number()
      .int()
      .positive()
      .max(Number.MAX_SAFE_INTEGER)
      .meta({ [CONFIGURED_CHAINS]: true })
      .nullable(),
    token: WizardToken.nullable(),
    brand: Brand.nullable(),
    deskPolicy: DeskPolicy.nullable().meta({
      description:
        "The redemption desk chosen for the deploy, sent as its deskPolicy (docs/deployment.md#redemption-desk); null: not chosen, the deploy omits it (EXECUTOR_ROLE granted, desk off)",
    }),
    taskId: z.string().nullable().meta({ description: "The onboarding task once the deploy started" }),
    programId: z.string().nullable().meta({
      description:
        "The program the account's own deploy task created; set by the server once that task succeeded, never by the client",
    }),
  })
  .meta({ id: "ConsoleWizard" });
export type Wizard = z.infer<typeof Wizard>;

/**
 * PUT body: any subset of the wizard's fields; null clears a field. No programId: the server
 * derives it from the account's own task, so a session cannot point itself at another program.
 */
export const WizardUpdate = z
  .strictObject({
    step: Wizard.shape.step.optional(),
    wallet: Wizard.shape.wallet.optional(),
    organization: Wizard.shape.organization.optional(),
    chainId: Wizard.shape.chainId.optional(),
    token: Wizard.shape.token.optional(),
    brand: Wizard.shape.brand.optional(),
    deskPolicy: Wizard.shape.deskPolicy.optional(),
    taskId: z.uuid("must be a task id (UUID)").nullable().optional(),
  })
  // An empty PUT saves nothing: most likely a client bug, so say so.
  .refine((o) => Object.keys(o).length > 0, "must set at least one wizard field");

export const ConsoleMe = z.object({
  email: z.string(),
  wallet: Address.nullable().meta({ description: "The wallet last connected in the wizard" }),
  provenWallet: Address.nullable().meta({
    description:
      "The wallet this session proved with Sign-In with Ethereum (POST /console/v1/wallet/prove); a console deploy must name it",
  }),
  wizard: Wizard,
});

export const ConsoleChain = z.object({
  chainId: z.number().int(),
  name: z.string(),
  testnet: z.boolean(),
  explorerUrl: z.string().nullable(),
  recommended: z.boolean().meta({ description: "Testnets are recommended for a first deploy" }),
});

const tag = "console";
const openRead = routeFamily({ method: "get", tag, auth: "open" });
const signInRoute = routeFamily({ method: "post", tag, auth: "open", public: true });
const sessionRoute = routeFamily({ tag, auth: "session" });

export const consoleRequestCode = signInRoute({
  path: "/console/v1/auth/request-code",
  summary: "Send a 6-digit sign-in code to an e-mail address; always answers sent:true",
  body: z.strictObject({ email: Email }),
  response: success(z.object({ sent: z.literal(true) })),
});

export const consoleVerify = signInRoute({
  path: "/console/v1/auth/verify",
  summary: "Exchange the code for a session cookie (points_session); 401 with attemptsLeft when wrong",
  body: z.strictObject({ email: Email, code: LoginCode }),
  errors: ["UNAUTHORIZED"],
  response: success(z.object({ email: z.string() })),
});

export const consoleLogout = signInRoute({
  path: "/console/v1/auth/logout",
  summary: "End the console session and clear its cookie (answers 200 without a session too)",
  response: success(z.object({ signedOut: z.literal(true) })),
});

export const consoleMe = sessionRoute({
  method: "get",
  path: "/console/v1/me",
  summary: "The signed-in user: e-mail, wallet and the wizard's saved progress",
  response: success(ConsoleMe),
});

export const consoleWizardSave = sessionRoute({
  method: "put",
  path: "/console/v1/wizard",
  summary:
    "Save wizard fields (partial); the chain is fixed once a deploy started (409); taskId must be this account's own task (404); steps 8-9 need that task to have succeeded (409)",
  body: WizardUpdate,
  errors: ["CONFLICT", "NOT_FOUND"],
  response: success(Wizard),
});

export const consoleWizardRestart = sessionRoute({
  method: "post",
  path: "/console/v1/wizard/restart",
  summary: "Reset the wizard to step 1 (the 'sign out and restart' path)",
  response: success(Wizard),
});

export const consoleChains = openRead({
  path: "/console/v1/chains",
  summary: "The chains this server deploys to",
  response: success(z.array(ConsoleChain)),
});

export const consoleBrandAvailable = openRead({
  path: "/console/v1/brands/:brand/available",
  summary:
    "Whether a brand is valid and free on a chain (not a registered program, not claimed by a deploy task); without chainId, on every chain",
  params: z.object({ brand: PathText(100) }),
  query: z.object({
    chainId: ConfiguredChainIdParam.optional().meta({
      description: "A brand is reserved per chain: ask about this one (a configured chain; 400 otherwise)",
    }),
  }),
  response: success(
    z.object({
      brand: z.string(),
      available: z.boolean(),
      reason: z
        .enum(["invalid", "program", "task"])
        .optional()
        .meta({ description: "invalid: breaks the brand rule; program: registered; task: claimed by a deploy" }),
      message: z.string().optional(),
    }),
  ),
});

export const consoleDevMailbox = openRead({
  path: "/console/v1/dev/mailbox",
  summary: "Development only (no SMTP_URL, NODE_ENV not production): recent sign-in codes; 404 otherwise",
  public: true,
  response: success(z.array(z.object({ email: z.string(), code: z.string(), sentAt: z.string() }))),
});
