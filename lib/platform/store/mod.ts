/** The store's public face: its interfaces and the opener (a barrel, so engines never import it). */
export type { Sql, Store } from "./types.ts";
export { backgroundStore } from "./types.ts";
export { openStore } from "./open.ts";
export { lockForTransaction } from "./advisory_locks.ts";
