/**
 * The interactive API reference on /api/docs: Swagger UI (swagger-ui-dist's own bundle, served
 * from static/api-docs/) rendering GET /api/openapi.json. A signed-in visitor's access token is
 * filled in as the Bearer credential, so "Try it out" calls the API as them on this server.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { accessToken } from "../lib/web/live_session.ts";

/** Where the page's server put the assets and the document. */
export interface ApiReferenceProps {
  bundleUrl: string;
  specUrl: string;
}

interface SwaggerUi {
  preauthorizeApiKey(name: string, value: string): void;
}

type SwaggerBundle = ((options: Record<string, unknown>) => SwaggerUi) & {
  presets: { apis: unknown };
};

// The bundle defines SwaggerUIBundle on the window; loaded once, on this page only.
function loadBundle(src: string): Promise<SwaggerBundle> {
  const ready = (globalThis as { SwaggerUIBundle?: SwaggerBundle }).SwaggerUIBundle;
  if (ready) return Promise.resolve(ready);
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = () => {
      const loaded = (globalThis as { SwaggerUIBundle?: SwaggerBundle }).SwaggerUIBundle;
      loaded ? resolve(loaded) : reject(new Error("the API reference did not load"));
    };
    script.onerror = () => reject(new Error("the API reference could not be loaded"));
    document.head.append(script);
  });
}

/** Mounts Swagger UI into its own element once the bundle has loaded. */
export default function ApiReference({ bundleUrl, specUrl }: ApiReferenceProps) {
  const mount = useRef<HTMLDivElement>(null);
  const [error, setError] = useState("");
  const [ready, setReady] = useState<"signed-in" | "signed-out" | "">("");
  useEffect(() => {
    loadBundle(bundleUrl).then(async (SwaggerUIBundle) => {
      const token = await accessToken().catch(() => undefined);
      const ui: SwaggerUi = SwaggerUIBundle({
        url: specUrl,
        domNode: mount.current,
        presets: [SwaggerUIBundle.presets.apis],
        // No call to swagger.io's validator badge: every request stays on this server.
        validatorUrl: null,
        deepLinking: true,
        tryItOutEnabled: false,
        persistAuthorization: false,
        // No schema section: the first draw is the list of operations only (each schema
        // still shows under its operation when opened).
        defaultModelsExpandDepth: -1,
        // The credential can only be set once the document has loaded: set before, it is
        // dropped and "Try it out" went out without a token.
        onComplete: () => {
          if (token) ui.preauthorizeApiKey("bearerAuth", token);
          setReady(token ? "signed-in" : "signed-out");
        },
      });
    }).catch((e: Error) => setError(e.message));
  }, [bundleUrl, specUrl]);
  return (
    <>
      {error ? <p role="alert" class="notice notice-error">{error}</p> : null}
      <p class="status" role="status">
        {ready === "signed-in"
          ? "Signed in: “Try it out” sends your access token."
          : ready === "signed-out"
          ? "Not signed in: sign in, or use “Authorize” with a Bearer token."
          : ""}
      </p>
      <div ref={mount} class="api-reference" />
    </>
  );
}
