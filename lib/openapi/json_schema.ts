/**
 * zod to JSON Schema for the OpenAPI document. OpenAPI 3.1's Schema Object is JSON Schema
 * draft 2020-12, which is zod's default target, so no dialect translation is needed; only the
 * per-schema `$schema` is dropped (OpenAPI 3.1's default dialect is 2020-12 based).
 */
import { z } from "zod";

/** A JSON Schema object as it goes into the document. */
export type JsonSchema = Record<string, unknown>;

// A component's `$id` would be its own `#/components/...` URI, and 2020-12 forbids a fragment
// in `$id`; the component's place in the document already names it.
function withoutDialect(schema: object): JsonSchema {
  const { $schema: _, $id: __, ...rest } = schema as JsonSchema;
  return rest;
}

/**
 * One schema, inlined. `io: "input"` for what clients send (query strings and bodies are
 * documented before the route's transforms), `"output"` for what the service answers.
 */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  return withoutDialect(z.toJSONSchema(schema, { io }));
}

/** Named output schemas as components; a component used inside another becomes a `$ref`. */
export function componentSchemas(named: Record<string, z.ZodType>): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io: "output",
    uri: (id) => `#/components/schemas/${id}`,
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => [id, withoutDialect(schema)]),
  );
}

/** An OpenAPI Parameter Object. */
interface Parameter {
  name: string;
  in: "query" | "path";
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

// A schema's description goes on the Parameter Object, where tools show it.
function parameter(
  name: string,
  where: "query" | "path",
  required: boolean,
  schema: JsonSchema,
): Parameter {
  const { description, ...rest } = schema;
  return {
    name,
    in: where,
    required,
    ...(typeof description === "string" ? { description } : {}),
    schema: rest,
  };
}

/** The query parameters of a route's `z.object` query schema, one per property. */
export function queryParameters(schema: z.ZodObject): Parameter[] {
  const json = jsonSchemaOf(schema, "input");
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) =>
    parameter(name, "query", required.has(name), property)
  );
}

/** A path parameter (always required) from the schema its route parses the segment with. */
export function pathParameter(name: string, schema: z.ZodType): Parameter {
  return parameter(name, "path", true, jsonSchemaOf(schema, "input"));
}
