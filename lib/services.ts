/** The app's services, built once per app from its dependencies and shared by every request. */
import { type AuthService, createAuthService } from "./auth/service.ts";
import type { AppDeps } from "./deps.ts";
import { createListsService, type ListsService } from "./lists/mod.ts";
import { createRecommendService, type RecommendService } from "./recommend/mod.ts";

/** Every service a handler can call, on `c.var.services`. */
export interface Services {
  auth: AuthService;
  recommend: RecommendService;
  lists: ListsService;
}

/** Builds the services of one app. */
export function createServices(deps: AppDeps): Services {
  const services: Services = {
    auth: createAuthService(deps),
    lists: createListsService(deps),
    // Titles the movies store does not know fall back to the catalog search (lib/catalog).
    recommend: createRecommendService(deps, {
      search: () => Promise.reject(new Error("the catalog search is not available yet")),
    }),
  };
  return services;
}
