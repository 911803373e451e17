/** Other apps: My List as a feed Radarr's Custom Lists import reads, by a rotatable secret. */
export { createFeedsService, type FeedsService } from "./service.ts";
