import type { OpenApiDocument as Doc } from "@points/schema/openapi";

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain, self-contained HTML reference of every operation (no scripts, no external assets). */
export function referencePage(doc: Doc): string {
  const sections: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops as Record<string, Record<string, unknown>>)) {
      const body = (op.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)?.content?.[
        "application/json"
      ]?.schema;
      const params = (op.parameters as { name: string; in: string }[] | undefined) ?? [];
      const auth = Array.isArray(op.security) && op.security.length ? "API key" : "open";
      sections.push(`<section id="${escape(String(op.operationId))}">
<h3><code>${method.toUpperCase()} ${escape(path)}</code></h3>
<p>${escape(String(op.summary ?? ""))} <em>(${auth})</em></p>
${params.length ? `<p>Parameters: ${params.map((p) => `<code>${escape(p.name)}</code> (${p.in})`).join(", ")}</p>` : ""}
${body ? `<details><summary>Body schema</summary><pre>${escape(JSON.stringify(body, null, 2))}</pre></details>` : ""}
</section>`);
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(doc.info.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}code,pre{background:#f4f4f4}pre{padding:.5rem;overflow:auto}section{border-top:1px solid #ddd}</style>
</head><body><h1>${escape(doc.info.title)}</h1><p>${escape(doc.info.description ?? "")}</p>
<p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>. Responses use the envelope <code>{success, data}</code> or <code>{success:false, error:{code, message, details?}}</code>.</p>
${sections.join("\n")}</body></html>`;
}
