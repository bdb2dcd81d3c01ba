/** PGlite and node-postgres hand back numerics, counts and times in different JS types; these even them out. */
export const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

export const iso = (value: unknown): string => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString());

/** A `LIKE` pattern matching `text` anywhere, with the user's own `%`, `_` and `\` taken literally. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Microsecond-exact, sortable text of a timestamptz column, for keyset cursors. */
export const timeKeySql = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
