/** /auth/v1/*: GoTrue's endpoints, served only when the built-in provider is the identity. */
import { builtinOnly } from "@/lib/http/middleware/builtin_only.ts";

export const middleware = [builtinOnly()];
