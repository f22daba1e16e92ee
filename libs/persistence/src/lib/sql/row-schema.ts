/**
 * A column as node-postgres hands it over: `int` (int4, a whole number), `float` (float8), text
 * (also uuid, and bigint and numeric, which the driver returns as text), `boolean`, arrays of
 * int4 or text, `date` (timestamptz, a `Date`), `json` (json or jsonb, parsed: any JSON value),
 * `bytes` (bytea, a `Buffer`); `?` allows null.
 */
type BaseColumn = 'string' | 'int' | 'float' | 'boolean' | 'int[]' | 'string[]' | 'date' | 'json' | 'bytes';
export type ColumnType = BaseColumn | `${BaseColumn}?`;

type BaseTypeOf<C extends BaseColumn> = C extends 'string'
  ? string
  : C extends 'int' | 'float'
    ? number
    : C extends 'boolean'
      ? boolean
      : C extends 'int[]'
        ? number[]
        : C extends 'string[]'
          ? string[]
          : C extends 'date'
            ? Date
            : C extends 'bytes'
              ? Buffer
              : unknown;

type TypeOf<C extends ColumnType> = C extends `${infer B extends BaseColumn}?`
  ? BaseTypeOf<B> | null
  : C extends BaseColumn
    ? BaseTypeOf<C>
    : never;

/** The columns of a read's rows, by name. */
export type Columns = Readonly<Record<string, ColumnType>>;

/** What a read's statement returns per row, named for the error that reports a mismatch. */
export interface RowSchema<C extends Columns> {
  readonly read: string;
  readonly columns: C;
}

/** A row of `S`. */
export type RowOf<S extends RowSchema<Columns>> = {
  readonly [K in keyof S['columns']]: TypeOf<S['columns'][K]>;
};

export function rowSchema<C extends Columns>(read: string, columns: C): RowSchema<C> {
  return { read, columns };
}

const IS: Readonly<Record<BaseColumn, (v: unknown) => boolean>> = {
  string: (v) => typeof v === 'string',
  int: (v) => Number.isInteger(v),
  float: (v) => typeof v === 'number',
  boolean: (v) => typeof v === 'boolean',
  'int[]': (v) => Array.isArray(v),
  'string[]': (v) => Array.isArray(v),
  date: (v) => v instanceof Date,
  // Parsed JSON: anything but undefined (a missing column); JSON's null is `json?`.
  json: (v) => v !== undefined && v !== null,
  bytes: (v) => Buffer.isBuffer(v),
};

/** A schema's columns as checks, worked out once per schema. */
const checksOf = new WeakMap<RowSchema<Columns>, [string, (v: unknown) => boolean][]>();

function checks(schema: RowSchema<Columns>): [string, (v: unknown) => boolean][] {
  let out = checksOf.get(schema);
  if (!out) {
    out = Object.entries(schema.columns).map(([name, type]) => {
      const nullable = type.endsWith('?');
      const is = IS[(nullable ? type.slice(0, -1) : type) as BaseColumn];
      return [name, nullable ? (v: unknown) => v === null || is(v) : is];
    });
    checksOf.set(schema, out);
  }
  return out;
}

/**
 * The rows as `schema`'s, after checking each column of each row (a typeof per value: cheap beside
 * the driver's parsing). A mismatch means the statement and its schema disagree: it throws rather
 * than let a wrong type reach a response. Columns the schema does not name are left unchecked.
 */
export function checkRows<S extends RowSchema<Columns>>(
  schema: S,
  rows: readonly Readonly<Record<string, unknown>>[],
): RowOf<S>[] {
  const columns = checks(schema);
  for (const row of rows) check(schema, columns, row);
  return rows as RowOf<S>[];
}

/** `checkRows` of one row. */
export function checkRow<S extends RowSchema<Columns>>(
  schema: S,
  row: Readonly<Record<string, unknown>>,
): RowOf<S> {
  check(schema, checks(schema), row);
  return row as RowOf<S>;
}

function check(
  schema: RowSchema<Columns>,
  columns: readonly [string, (v: unknown) => boolean][],
  row: Readonly<Record<string, unknown>>,
): void {
  for (const [name, is] of columns) {
    if (!is(row[name])) {
      const value =
        row[name] === undefined ? 'no such column' : `${typeof row[name]} ${JSON.stringify(row[name])}`;
      throw new TypeError(`${schema.read}: column ${name} should be ${schema.columns[name]}, got ${value}`);
    }
  }
}
