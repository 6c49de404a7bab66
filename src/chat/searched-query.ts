/** A condensed turn's search, as the condenser fills it, and as the Query the retriever takes. */
import type { Query, WeightedTerm } from '../retriever';

/** A condensed turn's search (Query's fields as the condenser fills them). */
export interface SearchedQuery { text: string; terms: WeightedTerm[]; hedge?: string; hedgeWeight?: number }

/** The search as a Query: terms only when there are some, a hedge (and its weight) only when there is one. */
export function asQuery(q: SearchedQuery): Query {
  return { text: q.text, ...(q.terms.length ? { terms: q.terms } : {}), ...(q.hedge !== undefined ? { hedge: q.hedge, ...(q.hedgeWeight !== undefined ? { hedgeWeight: q.hedgeWeight } : {}) } : {}) };
}
