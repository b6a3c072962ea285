import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { FORMATS, type Schema } from "./jsonSchemaArb.js";

/**
 * An independent check of requests and responses against the served OpenAPI document: Ajv in
 * JSON Schema 2020-12 mode (not the zod schemas the document was generated from), with the
 * document's named formats registered as the generator registers them.
 */

export interface Operation {
  id: string;
  method: string;
  /** OpenAPI path, `{name}` for parameters. */
  path: string;
  op: Schema;
  pathParams: Schema | undefined;
  queryParams: Schema | undefined;
  body: Schema | undefined;
}

const pointer = (...parts: string[]) => `#/${parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;

export class DocumentValidator {
  readonly ajv: Ajv2020;
  readonly operations: Operation[] = [];
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(readonly doc: Schema) {
    this.ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    for (const [name, f] of Object.entries(FORMATS)) this.ajv.addFormat(name, { type: "string", validate: f.validate });
    this.ajv.addSchema(doc, "openapi.json");
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
      for (const [method, op] of Object.entries(item)) {
        const params = (op.parameters ?? []) as Schema[];
        const group = (where: string): Schema | undefined => {
          const list = params.map((p, i) => ({ p, i })).filter(({ p }) => p.in === where);
          if (list.length === 0) return undefined;
          return {
            type: "object",
            properties: Object.fromEntries(
              list.map(({ p, i }) => [
                p.name,
                { $ref: `openapi.json${pointer("paths", path, method, "parameters", String(i), "schema")}` },
              ]),
            ),
            required: list.filter(({ p }) => p.required).map(({ p }) => p.name),
          };
        };
        const body = op.requestBody?.content?.["application/json"]?.schema;
        this.operations.push({
          id: op.operationId,
          method,
          path,
          op,
          pathParams: group("path"),
          queryParams: group("query"),
          body: body && {
            $ref: `openapi.json${pointer("paths", path, method, "requestBody", "content", "application/json", "schema")}`,
          },
        });
      }
    }
  }

  private compile(key: string, schema: Schema): ValidateFunction {
    let fn = this.cache.get(key);
    if (!fn) {
      fn = this.ajv.compile(schema);
      this.cache.set(key, fn);
    }
    return fn;
  }

  /** Whether a request's parts are valid by the document; the first error if not. */
  checkRequest(o: Operation, req: { params?: unknown; query?: unknown; body?: unknown }): string | undefined {
    const parts: [string, Schema | undefined, unknown][] = [
      ["params", o.pathParams, req.params ?? {}],
      ["query", o.queryParams, req.query ?? {}],
      ["body", o.body, req.body],
    ];
    for (const [part, schema, value] of parts) {
      if (!schema) continue;
      if (part === "body" && value === undefined) return "body: missing";
      const fn = this.compile(`${o.id}:${part}`, schema);
      if (!fn(value)) return `${part}${fn.errors?.[0]?.instancePath ?? ""}: ${fn.errors?.[0]?.message}`;
    }
    return undefined;
  }

  /** The operation a method and concrete path resolve to, if the document has one. */
  find(method: string, path: string): Operation | undefined {
    const bare = path.split("?")[0];
    return this.operations.find(
      (o) => o.method === method.toLowerCase() && new RegExp(`^${o.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(bare),
    );
  }

  /** Why a response does not match the document (undefined when it does). */
  checkResponse(o: Operation, status: number, contentType: string | null, body: unknown): string | undefined {
    const responses = o.op.responses as Record<string, Schema>;
    const key = String(status) in responses ? String(status) : undefined;
    if (!key) return `${o.method.toUpperCase()} ${o.path}: status ${status} is not documented`;
    const schema = responses[key].content?.["application/json"]?.schema;
    if (!schema) return undefined;
    if (!/^application\/json/.test(contentType ?? "")) return `${status}: content-type ${contentType} is not JSON`;
    const fn = this.compile(`${o.id}:${key}`, {
      $ref: `openapi.json${pointer("paths", o.path, o.method, "responses", key, "content", "application/json", "schema")}`,
    });
    if (fn(body)) return undefined;
    const e = fn.errors?.[0];
    return `${o.method.toUpperCase()} ${o.path} ${status}: ${e?.instancePath} ${e?.message} ${JSON.stringify(e?.params)}`;
  }
}
