/** /static/*: the stylesheet, the islands bundle and icons, with cache headers. */
import { serveStatic } from "@/lib/http/static.ts";

export const middleware = [serveStatic()];
