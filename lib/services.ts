/** The app's services, built once per app from its dependencies and shared by every request. */
import { type AuthService, createAuthService } from "./auth/service.ts";
import type { AppDeps } from "./deps.ts";

/** Every service a handler can call, on `c.var.services`. */
export interface Services {
  auth: AuthService;
}

/** Builds the services of one app. */
export function createServices(deps: AppDeps): Services {
  return {
    auth: createAuthService(deps),
  };
}
