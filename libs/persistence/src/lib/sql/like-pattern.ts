/**
 * `text` as a LIKE/ILIKE pattern that matches exactly it: `%`, `_` and the escape character `\`
 * (PostgreSQL's default: no `ESCAPE` clause needed) each get a backslash before them. Wrap the
 * result in `%` to match a substring or end it with `%` to match a prefix. Searches bind the
 * pattern as a value, so escaping the wildcards is all that keeps a user's `%` from matching
 * every name.
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}
