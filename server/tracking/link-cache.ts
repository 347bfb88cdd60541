/**
 * The capture route's slug lookup, cached in process so a visit answers without waiting on the
 * database (only the first visit of a slug per TTL reads it). Unknown slugs are cached too, briefly,
 * so random guesses do not each cost a query; the map is bounded and evicts its oldest entries.
 *
 * Staff disabling a link forgets its slug here at once (forget()); other server instances keep
 * answering it until their entry expires, at most `ttlMs` (30 s). A visit recorded in that window is
 * still refused by the write (record-visit.ts checks the link is enabled), so only the redirect, not
 * the record, can outlive the disable.
 */
export interface CachedLink {
  id: string;
  destination: string | null;
  disabled: boolean;
}

export interface LinkCache {
  get(slug: string, load: (slug: string) => Promise<CachedLink | null>, now?: number): Promise<CachedLink | null>;
  forget(slug: string): void;
}

export interface LinkCacheOptions {
  ttlMs: number;
  missTtlMs: number;
  maxEntries: number;
}

export const DEFAULT_LINK_CACHE: LinkCacheOptions = { ttlMs: 30_000, missTtlMs: 10_000, maxEntries: 10_000 };

export function createLinkCache(options: LinkCacheOptions = DEFAULT_LINK_CACHE): LinkCache {
  const entries = new Map<string, { link: CachedLink | null; expiresAt: number }>();
  // One query per slug however many visits arrive together before it is cached.
  const loading = new Map<string, Promise<CachedLink | null>>();

  return {
    async get(slug, load, now = Date.now()) {
      const hit = entries.get(slug);
      if (hit && hit.expiresAt > now) return hit.link;
      const pending = loading.get(slug);
      if (pending) return pending;
      const started: Promise<CachedLink | null> = load(slug)
        .then((link) => {
          // A load that forget() overtook (staff changed the link meanwhile) answers its caller but is not kept.
          if (loading.get(slug) !== started) return link;
          entries.delete(slug);
          while (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value as string);
          entries.set(slug, { link, expiresAt: Date.now() + (link ? options.ttlMs : options.missTtlMs) });
          return link;
        })
        .finally(() => {
          if (loading.get(slug) === started) loading.delete(slug);
        });
      loading.set(slug, started);
      return started;
    },
    forget(slug) {
      entries.delete(slug);
      loading.delete(slug);
    },
  };
}
