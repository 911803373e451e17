/** My services: region, providers and switches of a user, and the providers of a region. */
export {
  type ChosenProvider,
  createMyServicesService,
  type MyServices,
  type MyServicesService,
} from "./service.ts";
export { type RegionProvider, STREAM_KINDS } from "./provider_catalog.ts";
export {
  MAX_PROVIDERS,
  parseSettingsChange,
  providerIdSchema,
  type ServiceSettings,
  servicesPutSchema,
  type SettingsChange,
} from "./settings.ts";
