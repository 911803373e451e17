/** The catalog: TMDB behind the shared window, the movies store and its caches. */
export { createCatalogService, MAX_PAGE } from "./service.ts";
export {
  catalogIdParam,
  MAX_QUERY_LENGTH,
  pageParam,
  popularQuerySchema,
  providersQuerySchema,
  searchQuerySchema,
} from "./params.ts";
export type * from "./types.ts";
