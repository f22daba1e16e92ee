import { CONDITIONS, GRADING_COMPANIES, LANGUAGE_NAMES, type VariantFilter } from '@tcg/domain';
import fc from 'fast-check';
import { holdsDocumentScope, type VariantScope } from '../documents';
import { compile } from '../sql/compile';
import { variantConditions } from '../sql/variant-conditions';
import { variantWhere } from './card-fragments';

// The documents say which scopes they hold (`holdsDocumentScope`); the reads rely on it to answer
// from a document instead of the variants. Checked here, where both sides meet: the reads import
// the documents, never the other way round.

/**
 * The rule the reads followed before the flag: a document answers when the variant conditions a
 * read writes are, as SQL, those of the documents' own scope.
 */
function sameConditionsAsDocuments({ filter, onlyVariant, onlySku }: VariantScope): boolean {
  const documents = compile(variantConditions({ includeNullPrices: true }, true));
  const read = compile(variantWhere(filter, onlyVariant, onlySku));
  return read.sql === documents.sql && read.parameters.length === documents.parameters.length;
}

/** Mostly absent, so that a good share of scopes are the documents' own or one field from it. */
const optional = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: a, weight: 1 });

const filters: fc.Arbitrary<VariantFilter> = fc.record({
  printings: optional(fc.array(fc.constantFrom('normal', 'foil'), { maxLength: 2 })),
  conditions: optional(fc.subarray(CONDITIONS.map((c) => c.long))),
  languages: optional(fc.subarray([...LANGUAGE_NAMES])),
  updatedAfter: optional(fc.integer({ min: 0 })),
  includeNullPrices: fc.boolean(),
  graded: optional(fc.constantFrom('exclude', 'only', 'include')),
  gradingCompany: optional(fc.constantFrom(...GRADING_COMPANIES)),
  grades: optional(fc.array(fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 10 })), { maxLength: 2 })),
});

const scopes: fc.Arbitrary<VariantScope> = fc.record({
  filter: filters,
  onlyVariant: optional(fc.oneof(fc.uuid(), fc.constant('bolt-nm-en'))),
  onlySku: optional(fc.constant('123456')),
});

describe('holdsDocumentScope', () => {
  it('answers as comparing the conditions with the documents’ did', () => {
    const seen = new Set<boolean>();
    fc.assert(
      fc.property(scopes, (scope) => {
        const holds = holdsDocumentScope(scope);
        seen.add(holds);
        return holds === sameConditionsAsDocuments(scope);
      }),
      { numRuns: 2000 },
    );
    expect(seen).toEqual(new Set([true, false]));
  });

  it.each<[string, VariantScope, boolean]>([
    ['a default v1 request', { filter: { includeNullPrices: false } }, true],
    ['v2 defaults, raw variants', { filter: { includeNullPrices: true, graded: 'exclude' } }, true],
    ['graded variants too', { filter: { includeNullPrices: true, graded: 'include' } }, false],
    ['a language', { filter: { includeNullPrices: true, languages: ['English'] } }, false],
    ['a lookup of one variant', { filter: { includeNullPrices: true }, onlyVariant: 'bolt-nm-en' }, false],
    ['a lookup by SKU', { filter: { includeNullPrices: true }, onlySku: '1' }, false],
  ])('%s', (_name, scope, holds) => {
    expect(holdsDocumentScope(scope)).toBe(holds);
  });
});
