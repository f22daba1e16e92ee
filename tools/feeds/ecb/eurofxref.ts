import { FeedParseError } from '../json-stream';

/**
 * The ECB's euro foreign exchange reference rates as it publishes them
 * (`https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml`, `eurofxref-hist-90d.xml`,
 * `eurofxref-hist.xml`; genuine copies in tools/feeds/fixtures/ecb):
 *
 *   <gesmes:Envelope …><gesmes:subject>…</gesmes:subject><gesmes:Sender><gesmes:name>…</…></…>
 *     <Cube><Cube time='YYYY-MM-DD'><Cube currency='USD' rate='1.1252'/>…</Cube>…</Cube>
 *   </gesmes:Envelope>
 *
 * Each rate is units of the currency per one euro, as a decimal text. The daily file holds one
 * day, the others a day per `Cube time`, newest first; attributes come quoted either way (the
 * daily file uses ', the history files ").
 */
export interface EcbDay {
  /** `YYYY-MM-DD`, the ECB's business day. */
  readonly day: string;
  readonly rates: readonly EcbRate[];
}

export interface EcbRate {
  /** ISO 4217 code. */
  readonly currency: string;
  /** Units of `currency` per euro, exactly as published (`0.84770`). */
  readonly rate: string;
}

/**
 * The full history file (1999 on, about 7,000 days) is some MB; past this, it is not the ECB's.
 * Days and currencies are capped for the same reason: the reader's memory stays bounded by them.
 */
export const MAX_ECB_BYTES = 32 << 20;
const MAX_DAYS = 40_000;
const MAX_CURRENCIES_PER_DAY = 200;
/** An element or attribute name; a tag (attributes included) past this length is not the format's. */
const MAX_TAG_LENGTH = 512;
const MAX_TEXT_LENGTH = 512;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const CURRENCY = /^[A-Z]{3}$/;
/** A positive decimal as the ECB writes one: digits, optionally a point and digits. */
const RATE = /^\d{1,12}(\.\d{1,12})?$/;
const NAME = /^[A-Za-z_][\w.-]*(:[A-Za-z_][\w.-]*)?$/;
/** `name="value"` or `name='value'`, separated by whitespace; the values hold no markup. */
const ATTRIBUTE = /\s*([^\s=]+)\s*=\s*(?:"([^"<&]*)"|'([^'<&]*)')/y;

interface Tag {
  readonly name: string;
  readonly attributes: ReadonlyMap<string, string>;
  readonly selfClosing: boolean;
  readonly closing: boolean;
  /** Where the tag starts, for the error. */
  readonly offset: number;
}

/**
 * Reads one ECB reference-rate file whole: its days, each with its rates. Linear in the file's
 * length: one pass over it, each tag matched by `indexOf` and a sticky expression that never goes
 * back. Anything the format does not have is refused with where it is (`FeedParseError`): a
 * DOCTYPE or entity (nothing is expanded), an element out of place, a day or a currency twice, a
 * rate that is not a positive decimal, a day that is not a date, no day at all.
 */
export function readEcbRates(file: string, text: string): EcbDay[] {
  if (text.length > MAX_ECB_BYTES) throw new FeedParseError(file, 0, `longer than ${MAX_ECB_BYTES} bytes`);
  const fail = (offset: number, why: string): never => {
    throw new FeedParseError(file, offset, why);
  };
  const days: EcbDay[] = [];
  const seenDays = new Set<string>();
  // The open elements, outermost first; the format is four deep at most.
  const open: string[] = [];
  let day: { day: string; rates: EcbRate[]; seen: Set<string> } | undefined;
  let envelopeClosed = false;
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  while (at < text.length) {
    const lt = text.indexOf('<', at);
    const textEnd = lt === -1 ? text.length : lt;
    if (textEnd > at) {
      const content = text.slice(at, textEnd);
      // Text belongs to the sender's name and the subject only; elsewhere it is layout.
      const inText = open.at(-1) === 'gesmes:name' || open.at(-1) === 'gesmes:subject';
      if (content.trim() !== '' && !inText) fail(at, 'text outside the elements that hold text');
      if (content.length > MAX_TEXT_LENGTH && inText) fail(at, 'a text longer than the format has');
      if (content.includes('&') || content.includes('>')) fail(at, 'an entity or a stray ">" in text');
    }
    if (lt === -1) break;
    at = lt;
    if (text.startsWith('<?', at)) {
      // The XML declaration, only first.
      const end = text.indexOf('?>', at);
      if (at !== (text.charCodeAt(0) === 0xfeff ? 1 : 0) || end === -1 || end - at > MAX_TAG_LENGTH)
        fail(at, 'a processing instruction other than the XML declaration');
      at = end + 2;
      continue;
    }
    if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at + 4);
      if (end === -1) fail(at, 'a comment that does not end');
      at = end + 3;
      continue;
    }
    if (text.startsWith('<!', at)) fail(at, 'a DOCTYPE or CDATA section (the format has none)');
    if (envelopeClosed) fail(at, 'an element after the envelope');
    const tag = readTag(text, at, fail);
    at += tag.length;
    const { name } = tag.tag;
    const parent = open.at(-1);
    if (tag.tag.closing) {
      if (parent !== name) fail(tag.tag.offset, `</${name}> closes ${parent ? `<${parent}>` : 'nothing'}`);
      open.pop();
      if (name === 'Cube' && open.length === 2 && day) {
        if (day.rates.length === 0) fail(tag.tag.offset, `${day.day} has no rates`);
        days.push({ day: day.day, rates: day.rates });
        day = undefined;
      }
      if (open.length === 0) envelopeClosed = true;
      continue;
    }
    const depth = open.length;
    const attrs = tag.tag.attributes;
    if (depth === 0) {
      if (name !== 'gesmes:Envelope')
        fail(tag.tag.offset, `<${name}> where <gesmes:Envelope> starts the file`);
    } else if (parent === 'gesmes:Envelope') {
      if (!['gesmes:subject', 'gesmes:Sender', 'Cube'].includes(name))
        fail(tag.tag.offset, `<${name}> in the envelope`);
      if (name === 'Cube' && attrs.size > 0) fail(tag.tag.offset, 'the outer <Cube> has attributes');
    } else if (parent === 'gesmes:Sender') {
      if (name !== 'gesmes:name') fail(tag.tag.offset, `<${name}> in <gesmes:Sender>`);
    } else if (parent === 'Cube' && depth === 2) {
      if (name !== 'Cube') fail(tag.tag.offset, `<${name}> in the outer <Cube>`);
      const time = attrs.get('time');
      if (attrs.size !== 1 || time === undefined)
        fail(tag.tag.offset, 'a day <Cube> without time=, or with more');
      if (!isDate(time!)) fail(tag.tag.offset, `time="${time!.slice(0, 20)}" is not a date`);
      if (seenDays.has(time!)) fail(tag.tag.offset, `${time} is there twice`);
      if (seenDays.size >= MAX_DAYS) fail(tag.tag.offset, `more than ${MAX_DAYS} days`);
      seenDays.add(time!);
      day = { day: time!, rates: [], seen: new Set() };
      if (tag.tag.selfClosing) fail(tag.tag.offset, `${time} has no rates`);
    } else if (parent === 'Cube' && depth === 3 && day) {
      const currency = attrs.get('currency');
      const rate = attrs.get('rate');
      if (
        name !== 'Cube' ||
        !tag.tag.selfClosing ||
        attrs.size !== 2 ||
        currency === undefined ||
        rate === undefined
      )
        fail(tag.tag.offset, `a rate is <Cube currency=… rate=…/>, not this <${name}>`);
      if (!CURRENCY.test(currency!))
        fail(tag.tag.offset, `currency="${currency!.slice(0, 20)}" is not an ISO code`);
      if (currency === 'EUR') fail(tag.tag.offset, 'a rate of the euro against itself');
      if (!RATE.test(rate!) || !/[1-9]/.test(rate!))
        fail(tag.tag.offset, `rate="${rate!.slice(0, 20)}" is not a positive decimal`);
      if (day!.seen.has(currency!)) fail(tag.tag.offset, `${currency} twice on ${day!.day}`);
      if (day!.rates.length >= MAX_CURRENCIES_PER_DAY)
        fail(tag.tag.offset, `more than ${MAX_CURRENCIES_PER_DAY} currencies on ${day!.day}`);
      day!.seen.add(currency!);
      day!.rates.push({ currency: currency!, rate: rate! });
      continue;
    } else {
      fail(tag.tag.offset, `<${name}> inside <${parent}>`);
    }
    if (name !== 'Cube' && attrs.size > 0 && name !== 'gesmes:Envelope')
      fail(tag.tag.offset, `<${name}> has attributes`);
    if (!tag.tag.selfClosing) open.push(name);
    else if (depth === 0) envelopeClosed = true;
  }
  if (open.length > 0) fail(text.length, `the file ends inside <${open.at(-1)}>`);
  if (!envelopeClosed) fail(text.length, 'no <gesmes:Envelope>');
  if (days.length === 0) fail(text.length, 'no day of rates');
  return days;
}

/** The tag at `at` (a `<`): its name, attributes and kind, and how many characters it spans. */
function readTag(
  text: string,
  at: number,
  fail: (offset: number, why: string) => never,
): { tag: Tag; length: number } {
  const gt = text.indexOf('>', at);
  if (gt === -1 || gt - at > MAX_TAG_LENGTH) fail(at, 'a tag that does not end');
  let inner = text.slice(at + 1, gt);
  if (inner.includes('<')) fail(at, 'a "<" inside a tag');
  const closing = inner.startsWith('/');
  const selfClosing = !closing && inner.endsWith('/');
  if (closing) inner = inner.slice(1);
  if (selfClosing) inner = inner.slice(0, -1);
  const nameEnd = inner.search(/\s|$/);
  const name = inner.slice(0, nameEnd);
  if (!NAME.test(name)) fail(at, `"<${name.slice(0, 20)}" is not an element name`);
  const attributes = new Map<string, string>();
  const rest = inner.slice(nameEnd);
  if (closing && rest.trim() !== '') fail(at, `</${name}> with attributes`);
  ATTRIBUTE.lastIndex = 0;
  let consumed = 0;
  while (consumed < rest.length && rest.slice(consumed).trim() !== '') {
    ATTRIBUTE.lastIndex = consumed;
    const match = ATTRIBUTE.exec(rest);
    if (!match) fail(at, `<${name}>: an attribute that is not name="value"`);
    const key = match![1]!;
    if (attributes.has(key)) fail(at, `<${name}>: ${key} twice`);
    // Namespace declarations say which vocabulary; they are not data.
    if (key !== 'xmlns' && !key.startsWith('xmlns:')) attributes.set(key, match![2] ?? match![3]!);
    consumed = ATTRIBUTE.lastIndex;
  }
  return { tag: { name, attributes, selfClosing, closing, offset: at }, length: gt + 1 - at };
}

function isDate(text: string): boolean {
  const m = DAY.exec(text);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === text && Number(m[1]) >= 1999;
}
