/**
 * The API reference's view of the OpenAPI document (docs/openapi.md): its operations grouped by
 * tag, each with what /api/docs draws on the server (parameters, body, responses, credentials)
 * and a starting body to try. Drawn once per process, like the document itself, so the browser
 * receives HTML and runs no renderer (Swagger UI cost 3.5-5.5 s of main-thread time).
 */

type Json = Record<string, unknown>;

/** A path or query parameter of an operation. */
interface ReferenceParameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description: string;
  /** The schema's type and bounds in a few words ("string, 1-200 characters"). */
  type: string;
}

/** One operation as the reference shows it. */
export interface ReferenceOperation {
  /** A stable anchor: `get-api-movies-id`. */
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  parameters: ReferenceParameter[];
  body?: {
    contentType: string;
    description: string;
    required: boolean;
    /** A JSON body with the required fields filled with placeholders ("" for non-JSON). */
    example: string;
    /** The body's JSON Schema, pretty-printed. */
    schema: string;
  };
  responses: { status: string; description: string }[];
  /** The credentials it takes: `bearer`, `admin`; empty: none. */
  credentials: ("bearer" | "admin")[];
}

/** A tag's operations, in the document's order. */
export interface ReferenceGroup {
  tag: string;
  operations: ReferenceOperation[];
}

const METHODS = ["get", "post", "put", "patch", "delete"];

function resolve(doc: Json, value: unknown): Json {
  const ref = (value as Json | undefined)?.$ref;
  if (typeof ref !== "string") return (value ?? {}) as Json;
  const target = ref.replace(/^#\//, "").split("/").reduce<unknown>(
    (node, key) => (node as Json | undefined)?.[key],
    doc,
  );
  return resolve(doc, target);
}

function typeWords(schema: Json): string {
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(", ")}`;
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : String(schema.type ?? "");
  const bounds: string[] = [];
  if (schema.minimum !== undefined || schema.maximum !== undefined) {
    bounds.push(`${schema.minimum ?? "…"}-${schema.maximum ?? "…"}`);
  }
  if (schema.maxLength !== undefined) {
    bounds.push(`${schema.minLength ?? 0}-${schema.maxLength} characters`);
  }
  if (typeof schema.pattern === "string") bounds.push(`pattern ${schema.pattern}`);
  return [type || "value", ...bounds].join(", ");
}

/** A placeholder value for `schema`: its first enum value, else one of its type. */
function placeholder(doc: Json, raw: unknown, depth = 0): unknown {
  const schema = resolve(doc, raw);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const options = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (options?.length) return placeholder(doc, options[0], depth);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "object" || schema.properties) {
    if (depth > 3) return {};
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const properties = (schema.properties ?? {}) as Json;
    return Object.fromEntries(
      Object.entries(properties)
        .filter(([name]) => required.has(name))
        .map(([name, value]) => [name, placeholder(doc, value, depth + 1)]),
    );
  }
  if (type === "array") return [];
  if (type === "integer" || type === "number") return Number(schema.minimum ?? 1);
  if (type === "boolean") return false;
  if (type === "null") return null;
  return "";
}

function operationOf(doc: Json, path: string, method: string, raw: Json): ReferenceOperation {
  const parameters = ((raw.parameters ?? []) as unknown[]).map((p) => resolve(doc, p)).map((
    p,
  ) => ({
    name: String(p.name),
    in: p.in as ReferenceParameter["in"],
    required: p.required === true,
    description: String(p.description ?? ""),
    type: typeWords(resolve(doc, p.schema)),
  }));
  let body: ReferenceOperation["body"];
  const requestBody = raw.requestBody ? resolve(doc, raw.requestBody) : undefined;
  if (requestBody) {
    const content = (requestBody.content ?? {}) as Json;
    const contentType = Object.keys(content)[0] ?? "application/json";
    const schema = resolve(doc, (content[contentType] as Json | undefined)?.schema);
    const json = contentType === "application/json";
    body = {
      contentType,
      description: String(requestBody.description ?? ""),
      required: requestBody.required === true,
      example: json ? JSON.stringify(placeholder(doc, schema), null, 2) : "",
      schema: JSON.stringify(schema, null, 2),
    };
  }
  const responses = Object.entries((raw.responses ?? {}) as Json).map(([status, r]) => ({
    status,
    description: String(resolve(doc, r).description ?? ""),
  }));
  const schemes = ((raw.security ?? []) as Json[]).flatMap((s) => Object.keys(s));
  const credentials: ReferenceOperation["credentials"] = [];
  if (schemes.some((s) => s !== "adminToken")) credentials.push("bearer");
  if (schemes.includes("adminToken")) credentials.push("admin");
  return {
    id: `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, "-").replace(/-+$/, "").toLowerCase(),
    method: method.toUpperCase(),
    path,
    summary: String(raw.summary ?? ""),
    description: String(raw.description ?? ""),
    parameters,
    body,
    responses,
    credentials,
  };
}

/** The document's operations grouped by their first tag, tags in the document's order. */
export function referenceGroups(doc: Json): ReferenceGroup[] {
  const order = ((doc.tags ?? []) as Json[]).map((t) => String(t.name));
  const groups = new Map<string, ReferenceOperation[]>(order.map((tag) => [tag, []]));
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const raw = item[method] as Json | undefined;
      if (!raw) continue;
      const tag = String((raw.tags as string[] | undefined)?.[0] ?? "other");
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push(operationOf(doc, path, method, raw));
    }
  }
  return [...groups].filter(([, ops]) => ops.length).map(([tag, operations]) => ({
    tag,
    operations,
  }));
}
