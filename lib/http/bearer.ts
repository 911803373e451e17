/** The one parser of the `Authorization: Bearer` header, for the API and the GoTrue routes. */

// GoTrue's own grammar (`Bearer <token>`): whatever the token is, its verification judges it.
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The token of a `Bearer` header, or undefined when the header is missing or not Bearer. */
export function bearerToken(header: string | undefined): string | undefined {
  return header ? BEARER.exec(header)?.[1] : undefined;
}
