/**
 * The cursor of a page of a user's list (GET /api/lists/:id, /api/shared/:slug): the position
 * the next page starts after, base64url. One encoder for the server's nextCursor and for the
 * list editor, which reads on from its last item's position after a move or removal changed
 * the positions of the items not shown yet (docs/lists.md).
 */

/** The cursor of the page that follows the item at `position`. */
export function positionCursor(position: number): string {
  return btoa(`p${position}`).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}
