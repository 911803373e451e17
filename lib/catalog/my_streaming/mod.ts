/** My services: region, providers and switches of a user, and the providers of a region. */
export { createMyStreamingService, type MyStreaming, type MyStreamingService } from "./service.ts";
export { type RegionProvider } from "./provider_catalog.ts";
export {
  MAX_PROVIDERS,
  parseSettingsChange,
  providerIdSchema,
  servicesPutSchema,
} from "./settings.ts";
