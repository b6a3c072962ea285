import { createPublicKey, generateKeyPairSync, verify } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { computeAddress, SigningKey } from "ethers";
import { crc32c } from "@points/signers";
import { derSignature, N } from "./fakeAwsKms.js";
import { closeStandIn, readBody } from "./standIn.js";

export const PROJECT = "points-test";
/** The full name of key version 1 of key `id` in the stand-in's key ring. */
export const versionName = (id: string) =>
  `projects/${PROJECT}/locations/europe-west1/keyRings/executors/cryptoKeys/${id}/cryptoKeyVersions/1`;

/** CryptoKeyVersionAlgorithm values (google/cloud/kms/v1/resources.proto). */
const ALGORITHMS = { EC_SIGN_SECP256K1_SHA256: 31, EC_SIGN_P256_SHA256: 12 } as const;
type Algorithm = keyof typeof ALGORITHMS;
/** The HTTP status of each error (google.rpc.Code name) the stand-in answers. */
const FAULTS = { PERMISSION_DENIED: 403, FAILED_PRECONDITION: 400, NOT_FOUND: 404 } as const;

export interface FakeGcpKey {
  algorithm: Algorithm;
  /** A known secp256k1 key (hex): the stand-in signs with it, so its signatures can be recorded. */
  privateKey?: string;
  /** Answers recorded beforehand: digest (hex) to DER signature (hex), served instead of signing. */
  recorded?: Record<string, string>;
  /** Answer every request on this key with this error, as Cloud KMS does. */
  fault?: keyof typeof FAULTS;
  /** Never answer a request on this key. */
  hang?: boolean;
  /** Sign with another key than the one GetPublicKey shows. */
  signWith?: SigningKey;
  /** Spoil one integrity field of the answers (what a corrupting network would do). */
  corrupt?: "signatureCrc32c" | "verifiedDigestCrc32c" | "pemCrc32c" | "signature";
}

interface Key extends FakeGcpKey {
  pem: string;
  signing?: SigningKey;
}

export interface GcpKmsRequest {
  method: string;
  name: string;
  op: "getPublicKey" | "asymmetricSign" | "unknown";
  /** The bearer token's JWT claims (checked against the test service account's key). */
  claims?: Record<string, unknown>;
}

/**
 * A local stand-in for Google Cloud KMS's REST API (v1), the transport Google's SDK uses with
 * `fallback: true`, following Google's documented shapes: GET
 * `/v1/{name=projects/* /locations/* /keyRings/* /cryptoKeys/* /cryptoKeyVersions/*}/publicKey`
 * answers a PublicKey (pem, algorithm, pemCrc32c, name, protectionLevel); POST
 * `/v1/{name}:asymmetricSign` takes `{digest: {sha256}, digestCrc32c}` and answers
 * `{signature, signatureCrc32c, verifiedDigestCrc32c, name, protectionLevel}` (proto3 JSON:
 * bytes base64, Int64Value wrappers decimal strings, enums numbers when asked with
 * `enum-encoding=int`); errors are `{error: {code, message, status}}`. Like Cloud KMS it refuses
 * a digest whose digestCrc32c does not match (INVALID_ARGUMENT). Every request must carry a
 * bearer JWT signed by the service account the test made (`credentialsFile`), so the SDK's
 * Application Default Credentials are what authenticate. About half of its signatures have a
 * high s (every second one is answered with n - s).
 */
export async function startFakeGcpKms(keys: Record<string, FakeGcpKey>) {
  const store = new Map<string, Key>();
  for (const [id, k] of Object.entries(keys)) store.set(versionName(id), { ...k, ...generate(k) });
  const account = serviceAccount();
  const requests: GcpKmsRequest[] = [];
  const signatures: { der: Buffer; highS: boolean }[] = [];
  const held: ServerResponse[] = [];
  let signed = 0;

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? "/", "http://x");
    const path = decodeURIComponent(url.pathname);
    const m = /^\/v1\/(projects\/.+\/cryptoKeyVersions\/[^/:]+)(\/publicKey|:asymmetricSign)$/.exec(path);
    const op = !m ? "unknown" : m[2] === "/publicKey" ? "getPublicKey" : "asymmetricSign";
    const name = m?.[1] ?? "";
    const claims = bearerClaims(String(req.headers.authorization ?? ""), account.publicKey);
    requests.push({ method: req.method ?? "", name, op, claims });
    if (!claims) return fail(res, 401, "UNAUTHENTICATED", "Request had invalid authentication credentials.");
    const ints = url.searchParams.get("$alt") === "json;enum-encoding=int";
    const key = store.get(name);
    if (key?.hang) return void held.push(res);
    if (op === "unknown" || (op === "getPublicKey") !== (req.method === "GET"))
      return fail(res, 404, "NOT_FOUND", `no route ${req.method} ${path}`);
    if (!key) return fail(res, 404, "NOT_FOUND", `${name} not found.`);
    if (key.fault) {
      return fail(
        res,
        FAULTS[key.fault],
        key.fault,
        key.fault === "PERMISSION_DENIED"
          ? `Permission 'cloudkms.cryptoKeyVersions.useToSign' denied on resource '${name}' for executor@${PROJECT}.iam.gserviceaccount.com`
          : `${name} is not enabled, current state is: DISABLED.`,
      );
    }
    const protectionLevel = ints ? 2 : "HSM";
    if (op === "getPublicKey") {
      const pemCrc = crc32c(Buffer.from(key.pem)) + (key.corrupt === "pemCrc32c" ? 1 : 0);
      return answer(res, {
        pem: key.pem,
        algorithm: ints ? ALGORITHMS[key.algorithm] : key.algorithm,
        pemCrc32c: String(pemCrc),
        name,
        protectionLevel,
      });
    }
    let input: { digest?: { sha256?: string }; digestCrc32c?: string | number };
    try {
      input = JSON.parse(body) as typeof input;
    } catch {
      return fail(res, 400, "INVALID_ARGUMENT", "the body is not JSON");
    }
    const digest = Buffer.from(input.digest?.sha256 ?? "", "base64");
    if (digest.length !== 32) return fail(res, 400, "INVALID_ARGUMENT", "digest.sha256 must be 32 bytes");
    if (input.digestCrc32c !== undefined && BigInt(input.digestCrc32c) !== BigInt(crc32c(digest)))
      return fail(res, 400, "INVALID_ARGUMENT", "The checksum in field digest_crc32c did not match the data.");
    const recorded = key.recorded?.[digest.toString("hex")];
    let der: Buffer;
    let highS = false;
    if (recorded) der = Buffer.from(recorded, "hex");
    else {
      const signer = key.signWith ?? key.signing;
      if (!signer) return fail(res, 400, "FAILED_PRECONDITION", `${name} cannot sign`);
      const sig = signer.sign(digest);
      highS = signed++ % 2 === 1;
      der = derSignature(BigInt(sig.r), highS ? N - BigInt(sig.s) : BigInt(sig.s));
    }
    signatures.push({ der, highS });
    const sent = key.corrupt === "signature" ? Buffer.from(der.map((b, i) => (i === der.length - 1 ? b ^ 1 : b))) : der;
    return answer(res, {
      signature: sent.toString("base64"),
      signatureCrc32c: String(crc32c(der) + (key.corrupt === "signatureCrc32c" ? 1 : 0)),
      verifiedDigestCrc32c: input.digestCrc32c !== undefined && key.corrupt !== "verifiedDigestCrc32c",
      name,
      verifiedDataCrc32c: false,
      protectionLevel,
    });
  };
  // A request the stand-in cannot read is dropped, as a broken connection would be.
  const server = createServer((req, res) => void serve(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    endpoint,
    requests,
    signatures,
    /** The service account's key file: GOOGLE_APPLICATION_CREDENTIALS for the SDK's ADC. */
    credentialsFile: account.file,
    clientEmail: account.email,
    /** The Ethereum address of a secp256k1 key, from its private half (independently of the API). */
    address: (id: string) => computeAddress(store.get(versionName(id))!.signing!.publicKey),
    signingKey: (id: string) => store.get(versionName(id))!.signing!,
    /** Changes how a key answers from now on (e.g. disabled after start). */
    set: (id: string, change: Partial<FakeGcpKey>) => Object.assign(store.get(versionName(id))!, change),
    /** The API's settings for keys `ids` (several: comma-separated lanes). */
    env: (ids: string): Record<string, string> => ({
      EXECUTOR_SIGNER: "gcp-kms",
      GCP_KMS_KEY_VERSIONS: ids.split(",").map(versionName).join(","),
      GCP_KMS_ENDPOINT: endpoint,
    }),
    async close() {
      await closeStandIn(server, held);
      rmSync(account.dir, { recursive: true, force: true });
    },
  };
}

export type FakeGcpKms = Awaited<ReturnType<typeof startFakeGcpKms>>;

/** Points the SDK's Application Default Credentials at the stand-in's service account, and nowhere else. */
export function useFakeGcpCredentials(kms: FakeGcpKms): void {
  process.env.GOOGLE_APPLICATION_CREDENTIALS = kms.credentialsFile;
  // No metadata server lookup: nothing leaves this machine.
  process.env.METADATA_SERVER_DETECTION = "none";
  delete process.env.GOOGLE_CLOUD_PROJECT;
}

/** The SubjectPublicKeyInfo DER prefix of a secp256k1 point (id-ecPublicKey, secp256k1). */
const SECP256K1_SPKI = Buffer.from("3056301006072a8648ce3d020106052b8104000a034200", "hex");

function generate(k: FakeGcpKey): { pem: string; signing?: SigningKey } {
  if (k.algorithm !== "EC_SIGN_SECP256K1_SHA256") {
    const { publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    return { pem: publicKey.export({ type: "spki", format: "pem" }) as string };
  }
  const signing = new SigningKey(k.privateKey ?? randomScalar());
  const der = Buffer.concat([SECP256K1_SPKI, Buffer.from(signing.publicKey.slice(2), "hex")]);
  const pem = createPublicKey({ key: der, format: "der", type: "spki" }).export({ type: "spki", format: "pem" });
  return { pem: pem as string, signing };
}

function randomScalar(): string {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "secp256k1" });
  const d = Buffer.from(privateKey.export({ format: "jwk" }).d!, "base64url");
  return "0x" + Buffer.concat([Buffer.alloc(32 - d.length), d]).toString("hex");
}

/** A service account key file made for the test (RSA, as Google issues them). */
function serviceAccount() {
  const dir = mkdtempSync(join(tmpdir(), "gcp-adc-"));
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const email = `executor@${PROJECT}.iam.gserviceaccount.com`;
  const file = join(dir, "service-account.json");
  writeFileSync(
    file,
    JSON.stringify({
      type: "service_account",
      project_id: PROJECT,
      private_key_id: "fake-key-1",
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }),
      client_email: email,
      client_id: "100000000000000000001",
      // Never reached: the SDK signs its own JWT for a service account (no token exchange).
      token_uri: "http://127.0.0.1:9/token",
    }),
  );
  return { dir, file, email, publicKey };
}

/** The claims of a bearer JWT (RS256) signed by the service account's key; undefined otherwise. */
function bearerClaims(header: string, key: ReturnType<typeof generateKeyPairSync>["publicKey"]) {
  const m = /^Bearer ([\w-]+)\.([\w-]+)\.([\w-]+)$/.exec(header);
  if (!m) return undefined;
  const ok = verify("sha256", Buffer.from(`${m[1]}.${m[2]}`), key, Buffer.from(m[3]!, "base64url"));
  return ok ? (JSON.parse(Buffer.from(m[2]!, "base64url").toString("utf8")) as Record<string, unknown>) : undefined;
}

function answer(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { "content-type": "application/json; charset=UTF-8" });
  res.end(JSON.stringify(body));
}

function fail(res: ServerResponse, http: number, status: string, message: string): void {
  res.writeHead(http, { "content-type": "application/json; charset=UTF-8" });
  res.end(JSON.stringify({ error: { code: http, message, status } }));
}
