/**
 * Holds recorded API exchanges to the OpenAPI document with a real JSON Schema validator (ajv,
 * draft 2020-12, the dialect of OpenAPI 3.1): the path and method are documented (else a 404
 * problem for an unknown path, or a 405 problem whose Allow lists the documented methods), the
 * status is documented for the operation, the content type is a documented one, the body
 * matches its schema, and every documented header is present.
 */
import type { ErrorObject } from "ajv";
import { newAjv } from "./ajv.ts";
import type { Exchange } from "./contract_recorder.ts";

type Json = Record<string, unknown>;

/** A documented operation: its path template and method. */
export interface Operation {
  path: string;
  method: string;
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];
const DOC_ID = "https://movies.test/openapi.json";

function templateRegex(template: string): RegExp {
  const escaped = template.split(/\{[^}]+\}/).map((part) =>
    part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  );
  return new RegExp(`^${escaped.join("[^/]+")}$`);
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0].trim().toLowerCase();
}

/** Builds the checker of one document. */
export function contractValidator(document: Json) {
  const paths = document.paths as Record<string, Record<string, Json>>;
  const components = document.components as Json;
  const ajv = newAjv();
  ajv.addSchema({ $id: DOC_ID, components });
  // Templates with fewer parameters first, so /api/movies/search wins over /api/movies/{id}.
  const templates = Object.keys(paths)
    .map((template) => ({ template, regex: templateRegex(template) }))
    .sort((a, b) => a.template.split("{").length - b.template.split("{").length);
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();

  const resolve = (value: Json): Json => {
    const ref = value.$ref;
    if (typeof ref !== "string") return value;
    const parts = ref.replace(/^#\//, "").split("/");
    let node: unknown = document;
    for (const part of parts) {
      node = (node as Json)[part.replaceAll("~1", "/").replaceAll("~0", "~")];
    }
    return node as Json;
  };

  const schemaCheck = (key: string, schema: Json) => {
    let validate = compiled.get(key);
    if (!validate) {
      // Component refs point into the document registered above.
      const text = JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`);
      validate = ajv.compile(JSON.parse(text));
      compiled.set(key, validate);
    }
    return validate;
  };

  /** The documented template `path` falls under, if any. */
  function templateOf(path: string): string | undefined {
    return templates.find(({ regex }) => regex.test(path))?.template;
  }

  /** Every mismatch of `exchange` with the document (empty when it conforms). */
  function check(exchange: Exchange): string[] {
    const problems: string[] = [];
    const where = `${exchange.method} ${exchange.path} -> ${exchange.status}`;
    const type = mediaType(exchange.headers["content-type"]);
    const template = templateOf(exchange.path);
    if (!template) {
      if (exchange.status === 404 && type === "application/problem+json") return [];
      return [`${where}: the path is not documented`];
    }
    const method = exchange.method === "HEAD" ? "get" : exchange.method.toLowerCase();
    const item = paths[template];
    const operation = item[method];
    if (!operation) {
      const documented = METHODS.filter((m) => item[m]).map((m) => m.toUpperCase());
      if (exchange.status !== 405) return [`${where}: the method is not documented`];
      const allow = (exchange.headers["allow"] ?? "").split(",").map((m) => m.trim()).sort();
      if (allow.join(",") !== documented.sort().join(",")) {
        problems.push(`${where}: Allow "${exchange.headers["allow"]}" is not ${documented}`);
      }
      if (type !== "application/problem+json") problems.push(`${where}: 405 is not a problem`);
      return problems;
    }
    const responses = operation.responses as Record<string, Json>;
    const status = String(exchange.status);
    const documented = responses[status] ?? responses[`${status[0]}XX`] ?? responses.default;
    if (!documented) return [`${where}: status not documented for ${method} ${template}`];
    const response = resolve(documented);
    const content = (response.content ?? {}) as Record<string, Json>;
    for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      // A header the document marks required must be there; an optional one may be absent.
      if (resolve(header).required === true && exchange.headers[name.toLowerCase()] === undefined) {
        problems.push(`${where}: documented header ${name} is missing`);
      }
    }
    if (Object.keys(content).length === 0) {
      if (exchange.body !== "") problems.push(`${where}: a body where none is documented`);
      return problems;
    }
    const media = content[type];
    if (!media) {
      problems.push(`${where}: content type "${type}" is not one of ${Object.keys(content)}`);
      return problems;
    }
    if (exchange.method === "HEAD" || !media.schema || !type.endsWith("json")) return problems;
    let body: unknown;
    try {
      body = JSON.parse(exchange.body);
    } catch {
      return [...problems, `${where}: the body is not JSON`];
    }
    const validate = schemaCheck(`${template} ${method} ${status} ${type}`, media.schema as Json);
    if (!validate(body)) {
      const errors = (validate.errors ?? []).slice(0, 3)
        .map((e: ErrorObject) =>
          `${e.instancePath || "/"} ${e.message}${e.params ? " " + JSON.stringify(e.params) : ""}`
        );
      problems.push(`${where}: body does not match the schema: ${errors.join("; ")}`);
    }
    return problems;
  }

  /** Every documented operation. */
  function operations(): Operation[] {
    return Object.entries(paths).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((method) => ({ path, method: method.toUpperCase() }))
    );
  }

  return { check, operations, templateOf };
}
