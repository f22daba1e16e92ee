/** The eleven languages of the spec. English is the default: a variant with no language is English. */
export const LANGUAGES = [
  { name: 'English', slug: 'english' },
  { name: 'Japanese', slug: 'japanese' },
  { name: 'French', slug: 'french' },
  { name: 'German', slug: 'german' },
  { name: 'Spanish', slug: 'spanish' },
  { name: 'Italian', slug: 'italian' },
  { name: 'Chinese (S)', slug: 'chinese-s' },
  { name: 'Chinese (T)', slug: 'chinese-t' },
  { name: 'Portuguese', slug: 'portuguese' },
  { name: 'Russian', slug: 'russian' },
  { name: 'Korean', slug: 'korean' },
] as const;

export type Language = (typeof LANGUAGES)[number]['name'];
export const LANGUAGE_NAMES: readonly Language[] = LANGUAGES.map((l) => l.name);

const byKey = new Map<string, Language>(LANGUAGES.map((l) => [l.name.toLowerCase(), l.name]));

/** The canonical language name for a case-insensitive name, or undefined when unknown. */
export function parseLanguage(value: string): Language | undefined {
  return byKey.get(value.trim().toLowerCase());
}

export function languageSlug(language: Language): string {
  return LANGUAGES.find((l) => l.name === language)!.slug;
}
