/** GET /api/recommend/current: the stored set with its reasons, never generating. */
import { signedIn } from "@/lib/http/middleware/require_user.ts";
import { availabilityOf } from "@/lib/catalog/my_streaming/availability_of.ts";

// The folder's middleware adds the quota headers and requires the user; reading spends nothing.
export const handler = signedIn({
  async GET(c) {
    const userId = c.var.user.id;
    const set = await c.var.services.recommend.current(userId);
    // With services chosen, each pick says where it streams on them (stored data only).
    const settings = await c.var.services.myStreaming.settings(userId);
    if (settings.providerIds.length === 0) return c.json(set);
    const where = await availabilityOf(
      c.var.deps.store,
      userId,
      set.recommendations.map((r) => r.catalogId),
    );
    return c.json({
      ...set,
      recommendations: set.recommendations.map((r) => ({
        ...r,
        availability: where.get(r.catalogId) ?? [],
      })),
    });
  },
});
