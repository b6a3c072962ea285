import fc from "fast-check";
import { getAddress, hexlify } from "ethers";
import { MAX_UINT256, isChecksumValid } from "@points/schema";

/**
 * A small JSON Schema (2020-12, the subset OpenAPI 3.1 documents use) -> fast-check generator of
 * values the schema accepts. Named formats the document declares have a generator and a check
 * here, registered alike in the Ajv validator (see openapiAjv.ts).
 */

export type Schema = Record<string, any>;

/** The named formats: how to check them (Ajv) and how to make values that pass (fast-check). */
export const FORMATS: Record<string, { validate: (v: string) => boolean; arb?: () => fc.Arbitrary<string> }> = {
  "eip55-address": {
    validate: (v) => /^0x[0-9a-fA-F]{40}$/.test(v) && isChecksumValid(v),
    arb: () =>
      fc
        .tuple(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.constantFrom("lower", "upper", "checksum"))
        .map(([bytes, form]) => {
          const hex = hexlify(bytes);
          return form === "lower" ? hex : form === "upper" ? `0x${hex.slice(2).toUpperCase()}` : getAddress(hex);
        }),
  },
  uint256: {
    validate: (v) => /^(0|[1-9][0-9]*)$/.test(v) && v.length <= 78 && BigInt(v) <= MAX_UINT256,
  },
  email: {
    validate: (v) =>
      /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/.test(v),
    arb: () =>
      fc
        .tuple(fc.stringMatching(/^[a-z0-9]{1,20}$/), fc.stringMatching(/^[a-z]{1,10}$/), fc.constantFrom("com", "org"))
        .map(([l, d, t]) => `${l}@${d}.${t}`),
  },
  uuid: {
    validate: (v) => /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(v),
    arb: () => fc.uuid({ version: 4 }),
  },
  uri: {
    validate: (v) => /^https?:\/\/[^\s/?#]+[^\s]*$/.test(v),
    arb: () => fc.stringMatching(/^[a-z]{1,12}$/).map((h) => `https://${h}.example.com/`),
  },
};

const ref = (root: Schema, s: Schema): Schema => {
  if (!s.$ref) return s;
  const path = (s.$ref as string).replace(/^[^#]*#\//, "").split("/");
  const target = path.reduce((o: any, k) => o[k.replace(/~1/g, "/").replace(/~0/g, "~")], root);
  return ref(root, { ...target, ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== "$ref")) });
};

const patternOf = (s: Schema) => (s.pattern ? new RegExp(s.pattern, "u") : undefined);

/** fast-check builds strings from most patterns; look-aheads it cannot, so those filter text. */
function matching(pattern: RegExp, minLength: number, maxLength: number): fc.Arbitrary<string> {
  if (!/\(\?<?[=!]/.test(pattern.source)) return fc.stringMatching(pattern, { maxLength });
  return fc.string({ unit: "grapheme", minLength, maxLength: Math.min(maxLength, minLength + 40) });
}

function stringArb(s: Schema): fc.Arbitrary<string> {
  const minLength = s.minLength ?? 0;
  const maxLength = s.maxLength ?? 64;
  const fmt = s.format ? FORMATS[s.format] : undefined;
  const pattern = patternOf(s);
  let arb: fc.Arbitrary<string>;
  if (fmt?.arb) arb = fmt.arb();
  else if (s.format === "uint256") {
    const min = pattern && !pattern.test("0") ? 1n : 0n;
    arb = fc
      .oneof(fc.bigInt({ min, max: 10n ** 24n }), fc.bigInt({ min, max: MAX_UINT256 }), fc.constant(MAX_UINT256))
      .map(String);
  } else if (pattern) arb = matching(pattern, minLength, maxLength);
  else arb = fc.string({ unit: "grapheme", minLength, maxLength: Math.min(maxLength, minLength + 40) });
  return arb.filter(
    (v) =>
      [...v].length >= minLength &&
      [...v].length <= maxLength &&
      (!pattern || pattern.test(v)) &&
      (!fmt || fmt.validate(v)),
  );
}

function numberArb(s: Schema): fc.Arbitrary<number> {
  const min = s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : (s.minimum ?? -(2 ** 53 - 1));
  const max = s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : (s.maximum ?? 2 ** 53 - 1);
  // Near zero, or near the minimum when that is above 1000 (a gas ceiling).
  const lo = Math.max(min, -1000);
  const small = fc.integer({ min: lo, max: Math.min(max, Math.max(lo, 1000)) });
  const wide = fc.double({ min, max, noNaN: true }).map(Math.floor);
  const int = fc.oneof(small, wide).filter((n) => n >= min && n <= max);
  return s.type === "integer" ? int : fc.oneof(int, fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
}

/** Values the schema accepts. `root` resolves `$ref`s (the whole document). */
export function arbitraryOf(root: Schema, schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = ref(root, schema);
  if ("const" in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
  const alts = s.anyOf ?? s.oneOf;
  if (alts && (s.type || s.properties)) {
    // A base schema narrowed by alternatives: each alternative refines the base's properties.
    const { anyOf: _a, oneOf: _o, ...base } = s;
    return fc.oneof(
      ...(alts as Schema[]).map((a) => {
        const alt = ref(root, a);
        return arbitraryOf(root, { ...base, ...alt, properties: { ...base.properties, ...alt.properties } }, depth + 1);
      }),
    );
  }
  if (alts) return fc.oneof(...(alts as Schema[]).map((a) => arbitraryOf(root, a, depth + 1)));
  if (s.allOf) return arbitraryOf(root, Object.assign({}, ...(s.allOf as Schema[]).map((a) => ref(root, a))), depth);
  if (Array.isArray(s.type)) {
    return fc.oneof(...(s.type as string[]).map((t) => arbitraryOf(root, { ...s, type: t }, depth + 1)));
  }
  switch (s.type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "string":
      return stringArb(s);
    case "integer":
    case "number":
      return numberArb(s);
    case "array":
      return fc.array(arbitraryOf(root, s.items ?? {}, depth + 1), {
        minLength: s.minItems ?? 0,
        maxLength: Math.min(s.maxItems ?? 4, 4),
      });
    case "object":
      return objectArb(root, s, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArb(root: Schema, s: Schema, depth: number): fc.Arbitrary<unknown> {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set<string>(s.required ?? []);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(props)) record[k] = arbitraryOf(root, v, depth + 1);
  const requiredKeys = Object.keys(props).filter((k) => required.has(k));
  const base = fc.record(record, { requiredKeys });
  if (s.additionalProperties && typeof s.additionalProperties === "object" && Object.keys(props).length === 0) {
    const keys = s.propertyNames ? stringArb({ type: "string", ...ref(root, s.propertyNames) }) : fc.string();
    return fc.dictionary(keys, arbitraryOf(root, s.additionalProperties, depth + 1), { maxKeys: 3 });
  }
  return base;
}

/**
 * Values the schema most likely refuses: the wrong JSON type, a string breaking its pattern or
 * length, an unknown property, a required one missing. The suite asks Ajv which they really are.
 */
export function invalidArbitraryOf(root: Schema, schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = ref(root, schema);
  const wrongType = fc.oneof(fc.constant(null), fc.integer(), fc.boolean(), fc.constant([]), fc.constant({}));
  const nasty = fc.constantFrom(
    "",
    "\u0000",
    "a\u0000b",
    "\ud800",
    "x\udfffy",
    ".",
    "..",
    "0",
    "-1",
    "0x",
    "\u{1F600}",
  );
  const options: fc.Arbitrary<unknown>[] = [wrongType, nasty, fc.string({ unit: "binary", maxLength: 12 })];
  if (s.type === "object" && s.properties) {
    const valid = arbitraryOf(root, s) as fc.Arbitrary<Record<string, unknown>>;
    const names = Object.keys(s.properties);
    options.push(
      valid.map((o) => ({ ...o, unexpected: 1 })),
      fc.tuple(valid, fc.constantFrom(...names), wrongType).map(([o, k, v]) => ({ ...o, [k]: v })),
      fc.tuple(valid, fc.constantFrom(...names), nasty).map(([o, k, v]) => ({ ...o, [k]: v })),
      // One level down: a nested object keeps its shape and has one of its own fields broken.
      ...Object.entries(s.properties as Record<string, Schema>)
        .filter(([, p]) => depth < 2 && ref(root, p).type === "object" && ref(root, p).properties)
        .map(([k, p]) =>
          fc.tuple(valid, invalidArbitraryOf(root, p, depth + 1)).map(([o, bad]) => ({ ...o, [k]: bad })),
        ),
      fc.tuple(valid, fc.constantFrom(...names)).map(([o, k]) => {
        const copy = { ...o };
        delete copy[k];
        return copy;
      }),
    );
  }
  return fc.oneof(...options);
}
