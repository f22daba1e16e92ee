// @ts-check
// Card-name suggestions under the explorer's name field, from GET /v1/cards/autocomplete: the
// WAI-ARIA combobox pattern (a listbox popup, the active option named by aria-activedescendant),
// asked for once typing pauses, each request aborting the one before.
import { apiGet } from './api.js';

/** Pause in typing before asking: one request per pause, not per key. */
const DEBOUNCE_MS = 200;
/** Characters typed before the first suggestion (the API's own minimum). */
const MIN_CHARS = 2;
const MAX_CHARS = 64;
const SHOWN = 8;

/**
 * Suggests names under `input` as one types. Arrow keys move through them, Enter or a click
 * picks one (the input takes the name and `onPick` runs), Escape closes the list.
 * @param {HTMLInputElement} input
 * @param {HTMLUListElement} list its listbox, placed right after it
 * @param {() => string | undefined} key the API key, undefined when none is typed
 * @param {(name: string) => void} onPick
 */
export function suggestNames(input, list, key, onPick) {
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', list.id);
  input.setAttribute('aria-expanded', 'false');
  list.setAttribute('role', 'listbox');
  list.hidden = true;

  /** @type {string[]} */
  let names = [];
  let active = -1;
  let timer = 0;
  let inFlight = new AbortController();

  const close = () => {
    inFlight.abort();
    window.clearTimeout(timer);
    names = [];
    active = -1;
    list.replaceChildren();
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
  };

  /** @param {number} index */
  const highlight = (index) => {
    active = index;
    for (const [i, option] of [...list.children].entries())
      option.setAttribute('aria-selected', String(i === index));
    if (index < 0) input.removeAttribute('aria-activedescendant');
    else input.setAttribute('aria-activedescendant', `${list.id}-${index}`);
  };

  /** @param {number} index */
  const pick = (index) => {
    const name = names[index];
    if (name === undefined) return;
    input.value = name;
    close();
    onPick(name);
  };

  /** @param {{ name: string }[]} suggestions */
  const show = (suggestions) => {
    names = [...new Set(suggestions.map((s) => s.name))].slice(0, SHOWN);
    list.replaceChildren(
      ...names.map((name, i) => {
        const option = document.createElement('li');
        option.id = `${list.id}-${i}`;
        option.setAttribute('role', 'option');
        option.setAttribute('aria-selected', 'false');
        option.textContent = name;
        // mousedown, not click: the input keeps the focus, so the list is not closed by its blur.
        option.addEventListener('mousedown', (event) => {
          event.preventDefault();
          pick(i);
        });
        return option;
      }),
    );
    active = -1;
    list.hidden = names.length === 0;
    input.setAttribute('aria-expanded', String(names.length > 0));
  };

  const ask = async () => {
    const text = input.value.trim();
    const apiKey = key();
    if ([...text].length < MIN_CHARS || [...text].length > MAX_CHARS || !apiKey) return close();
    inFlight.abort();
    inFlight = new AbortController();
    const signal = inFlight.signal;
    try {
      const body = await apiGet(
        `/v1/cards/autocomplete?${new URLSearchParams({ q: text, limit: String(SHOWN) })}`,
        apiKey,
        signal,
      );
      if (!signal.aborted) show(Array.isArray(body?.data) ? body.data : []);
    } catch {
      // A suggestion is a convenience: a failure (aborted, over quota) shows nothing; the search
      // itself reports errors.
      if (!signal.aborted) close();
    }
  };

  input.addEventListener('input', () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void ask(), DEBOUNCE_MS);
  });
  input.addEventListener('keydown', (event) => {
    if (list.hidden) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      // Wraps around at either end; from none, down is the first and up the last.
      const last = names.length - 1;
      if (event.key === 'ArrowDown') highlight(active >= last ? 0 : active + 1);
      else highlight(active <= 0 ? last : active - 1);
    } else if (event.key === 'Enter' && active >= 0) {
      event.preventDefault();
      pick(active);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  });
  input.addEventListener('blur', close);
  // A search submitted meanwhile makes any suggestion late.
  input.form?.addEventListener('submit', close);
}
