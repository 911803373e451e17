/** A draft 2020-12 JSON Schema validator (OpenAPI 3.1's dialect) with the standard formats. */
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";

// ajv-formats is CommonJS; its default export is the plugin function under Deno's interop.
const addFormats = formats as unknown as (ajv: Ajv2020) => Ajv2020;

/** A validator that reports every error and ignores OpenAPI's own keywords (example, ...). */
export function newAjv(): Ajv2020 {
  return addFormats(new Ajv2020({ strict: false, allErrors: true, logger: false }));
}
