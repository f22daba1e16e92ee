import type { CardIdAssertions, IdKind, StoredIdAssertion } from '@tcg/persistence';
import type {
  CardIdsV2Response,
  IdAssertionV2,
  IdConflictV2,
  IdHolderV2,
  IdLookupV2Response,
  VariantIdsV2,
} from './dto/card-ids.dto';
import type { IdConflict } from './id-conflicts';

function toAssertion(a: StoredIdAssertion): IdAssertionV2 {
  return { kind: a.kind, value: a.value, feed: a.feed, first_seen: a.firstSeen, last_seen: a.lastSeen };
}

function toConflict(c: IdConflict): IdConflictV2 {
  return {
    reason: c.reason,
    kind: c.kind,
    detail: c.detail,
    assertions: c.assertions.map((a) => ({
      card_id: a.cardUuid,
      card_slug: a.cardSlug,
      variant_id: a.variantUuid,
      variant_slug: a.variantSlug,
      value: a.value,
      feed: a.feed,
      last_seen: a.lastSeen,
    })),
  };
}

/** GET /v2/cards/{id}/ids: the card's own ids, then each variant's, in the order read. */
export function toCardIdsResponse(
  found: CardIdAssertions,
  conflicts: readonly IdConflict[],
): CardIdsV2Response {
  const variants = new Map<string, VariantIdsV2>();
  const ids: IdAssertionV2[] = [];
  for (const a of found.assertions) {
    if (a.variantUuid === null) {
      ids.push(toAssertion(a));
      continue;
    }
    let variant = variants.get(a.variantUuid);
    if (!variant) {
      variant = { id: a.variantUuid, slug: a.variantSlug ?? '', ids: [] };
      variants.set(a.variantUuid, variant);
    }
    variant.ids.push(toAssertion(a));
  }
  return {
    data: {
      id: found.card.uuid,
      slug: found.card.slug,
      ids,
      variants: [...variants.values()],
      conflicts: conflicts.map(toConflict),
    },
  };
}

/** GET /v2/ids/{kind}/{value}: each card or variant holding it, with who said so. */
export function toLookupResponse(
  kind: IdKind,
  value: string,
  holders: readonly StoredIdAssertion[],
  conflicts: readonly IdConflict[],
): IdLookupV2Response {
  const cards = new Map<string, IdHolderV2>();
  for (const a of holders) {
    const key = `${a.cardUuid}|${a.variantUuid ?? ''}`;
    let holder = cards.get(key);
    if (!holder) {
      holder = {
        card_id: a.cardUuid,
        card_slug: a.cardSlug,
        variant_id: a.variantUuid,
        variant_slug: a.variantSlug,
        asserted_by: [],
      };
      cards.set(key, holder);
    }
    holder.asserted_by.push({ feed: a.feed, first_seen: a.firstSeen, last_seen: a.lastSeen });
  }
  return { data: { kind, value, cards: [...cards.values()], conflicts: conflicts.map(toConflict) } };
}
