/** Long values are quoted by their head only: an error echoing 100 KB helps nobody. */
export function abbreviate(text: string, max = 24): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
