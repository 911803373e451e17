/**
 * A failed sign-in with the identity provider: it goes back to the site as
 * `?error=&error_description=` (OAuth's words), and the sign-in page shows the description.
 */
export class OidcFailure extends Error {
  /** OAuth's error code: `access_denied`, `invalid_request`, `server_error`. */
  readonly code: string;

  constructor(code: string, description: string) {
    super(description);
    this.name = "OidcFailure";
    this.code = code;
  }
}
