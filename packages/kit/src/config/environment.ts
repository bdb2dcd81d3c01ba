import { Type, type Static, type TArray, type TBoolean, type TInteger, type TLiteral, type TObject, type TOptional, type TSchema, type TString, type TUnion } from 'typebox';

// Configuration as TypeBox schemas: each variable is declared once, with its type, bounds, default and
// meaning; `readVariables` reads a whole schema from the environment, and docs/configuration.md is
// generated from the same declarations (scripts/configurationDoc.ts).

export interface ConfigProblem {
  variable: string;
  problem: string;
}

/** Every problem of a configuration, each naming its variable: a start-up error lists them all together. */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];

  /** Several problems, or one: its variable and what is wrong with it. */
  constructor(problemsOrVariable: readonly ConfigProblem[] | string, problem = '') {
    const problems = typeof problemsOrVariable === 'string' ? [{ variable: problemsOrVariable, problem }] : problemsOrVariable;
    super(problems.map(({ variable, problem }) => `Configuration error: ${variable} ${problem}`).join('\n'));
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Problems gathered while a configuration is read, thrown together at the end. */
export class ConfigProblems {
  private readonly found: ConfigProblem[] = [];

  add(variable: string, problem: string): void {
    this.found.push({ variable, problem });
  }

  /** True when a problem already names this variable (a rule over it has nothing sound to check). */
  names(variable: string): boolean {
    return this.found.some((p) => p.variable === variable);
  }

  throwIfAny(): void {
    if (this.found.length) throw new ConfigError(this.found);
  }
}

/** Runs a reading of the configuration and throws every problem it found at once. */
export function collectConfig<T>(read: (problems: ConfigProblems) => T): T {
  const problems = new ConfigProblems();
  const value = read(problems);
  problems.throwIfAny();
  return value;
}

/** What every variable declares besides its type: the generated docs and the checks read these. */
export interface VariableNotes {
  /** What it means, for docs/configuration.md. */
  description: string;
  /** The default in words when it is not one fixed value (generated, or computed from another variable). */
  defaultText?: string;
  /** A secret: in a cluster it only ever comes from a Kubernetes Secret (the chart's `secretEnv`), never a ConfigMap. */
  secret?: boolean;
  /**
   * Production refuses to start without it: `true` (whenever NODE_ENV=production without the labelled
   * stand-ins), or the condition in words. The configuration tests check every `true` against the loaders.
   */
  production?: true | string;
  /** A value that passes, for the docs and for the tests of production start-up. */
  example?: string;
  /** Shown with a bad value: what a good one looks like. */
  hint?: string;
}

type Kind = 'integer' | 'boolean' | 'string' | 'list' | 'choice';
const KIND = 'x-variable';

/** A variable with a default is always there; one without is optional (undefined when unset). */
type Declared<S extends TSchema, O> = O extends { default: unknown } ? S : TOptional<S>;

function declare<S extends TSchema>(schema: S, hasDefault: boolean) {
  return (hasDefault ? schema : Type.Optional(schema)) as never;
}

const notesOf = ({ description, defaultText, secret, production, example, hint }: VariableNotes) => ({
  description,
  ...(defaultText !== undefined ? { defaultText } : {}),
  ...(secret ? { secret } : {}),
  ...(production ? { production } : {}),
  ...(example !== undefined ? { examples: [example] } : {}),
  ...(hint !== undefined ? { hint } : {}),
});

/** Builders of the variables' schemas; a variable without a default is optional (undefined when unset). */
export const Variable = {
  integer<O extends VariableNotes & { default?: number; minimum?: number; maximum?: number }>(o: O): Declared<TInteger, O> {
    return declare(Type.Integer({
      ...notesOf(o), [KIND]: 'integer', minimum: o.minimum ?? 0, maximum: o.maximum ?? Number.MAX_SAFE_INTEGER,
      ...(o.default !== undefined ? { default: o.default } : {}),
    }), o.default !== undefined);
  },

  /** `true`/`false`, also `1`/`0`, `yes`/`no`, `on`/`off`. */
  boolean<O extends VariableNotes & { default?: boolean }>(o: O): Declared<TBoolean, O> {
    return declare(Type.Boolean({ ...notesOf(o), [KIND]: 'boolean', ...(o.default !== undefined ? { default: o.default } : {}) }), o.default !== undefined);
  },

  /** `base`: an http(s) base URL whose trailing slash is dropped; `url`: any http(s) URL. */
  string<O extends VariableNotes & { default?: string; pattern?: RegExp; url?: boolean; base?: boolean }>(o: O): Declared<TString, O> {
    const url = o.url || o.base;
    const pattern = o.pattern ?? (url ? URL_PATTERN : undefined);
    return declare(Type.String({
      ...notesOf({ ...o, hint: o.hint ?? (url ? 'an http(s) URL' : undefined) }), [KIND]: 'string',
      ...(pattern ? { pattern: pattern.source } : {}),
      ...(o.base ? { base: true } : {}),
      ...(o.default !== undefined ? { default: o.default } : {}),
    }), o.default !== undefined);
  },

  /** Comma-separated, each entry trimmed, empty ones dropped; `item` checks each entry. */
  list<O extends VariableNotes & { default?: string[]; item?: RegExp; lowerCase?: boolean }>(o: O): Declared<TArray<TString>, O> {
    return declare(Type.Array(Type.String(), {
      ...notesOf(o), [KIND]: 'list',
      ...(o.item ? { itemPattern: o.item.source } : {}),
      ...(o.lowerCase ? { lowerCase: true } : {}),
      ...(o.default !== undefined ? { default: o.default } : {}),
    }), o.default !== undefined);
  },

  /** One of `values`, case-insensitive. */
  choice<const V extends readonly string[], O extends VariableNotes & { default?: V[number] }>(values: V, o: O): Declared<TUnion<{ -readonly [K in keyof V]: TLiteral<V[K]> }>, O> {
    return declare(Type.Union(values.map((v) => Type.Literal(v)) as never, {
      ...notesOf(o), [KIND]: 'choice', choices: [...values],
      ...(o.default !== undefined ? { default: o.default } : {}),
    }), o.default !== undefined);
  },
};

export const URL_PATTERN = /^https?:\/\/[^\s]+$/;
const TRUE = /^(1|true|yes|on)$/i;
const FALSE = /^(0|false|no|off)$/i;

/** What a declared variable's schema holds, as the reader and the docs see it. */
export interface VariableSchema {
  [KIND]: Kind;
  description: string;
  defaultText?: string;
  secret?: boolean;
  production?: true | string;
  examples?: string[];
  hint?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  base?: boolean;
  itemPattern?: string;
  lowerCase?: boolean;
  choices?: string[];
}

/** The declarations of a schema's variables, by name. */
export function variablesOf(schema: TObject): [string, VariableSchema][] {
  return Object.entries(schema.properties).map(([name, property]) => [name, property as unknown as VariableSchema]);
}

const hinted = (hint: string | undefined) => (hint ? ` (${hint})` : '');

/** One variable's value from its text, or the problem with it. */
function decode(name: string, raw: string, s: VariableSchema): { value: unknown } | { problem: string } {
  switch (s[KIND]) {
    case 'integer': {
      const n = Number(raw);
      if (!Number.isInteger(n) || n < s.minimum! || n > s.maximum!) return { problem: `must be an integer ${s.maximum === Number.MAX_SAFE_INTEGER ? `of at least ${s.minimum}` : `from ${s.minimum} to ${s.maximum}`}, got "${raw}"` };
      return { value: n };
    }
    case 'boolean':
      if (TRUE.test(raw)) return { value: true };
      if (FALSE.test(raw)) return { value: false };
      return { problem: `must be true or false, got "${raw}"` };
    case 'string':
      if (s.pattern && !new RegExp(s.pattern).test(raw)) return { problem: `has a bad value "${raw}"${hinted(s.hint)}` };
      return { value: s.base ? raw.replace(/\/$/, '') : raw };
    case 'list': {
      const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean).map((entry) => (s.lowerCase ? entry.toLowerCase() : entry));
      const bad = s.itemPattern ? entries.find((entry) => !new RegExp(s.itemPattern!).test(entry)) : undefined;
      if (bad !== undefined) return { problem: `has a bad entry "${bad}"${hinted(s.hint)}` };
      return { value: entries };
    }
    case 'choice': {
      const choice = raw.toLowerCase();
      if (!s.choices!.includes(choice)) return { problem: `must be one of ${s.choices!.join(', ')}, got "${choice}"` };
      return { value: choice };
    }
  }
}

/**
 * Reads every variable of `schema` from the environment: unset or empty takes the default, a bad
 * value is a problem naming the variable (and the default stands in for it, so the rules that
 * follow can still run and name their own problems).
 */
export function readVariables<S extends TObject>(schema: S, env: NodeJS.ProcessEnv, problems: ConfigProblems): Static<S> {
  const values: Record<string, unknown> = {};
  for (const [name, declared] of variablesOf(schema)) {
    const raw = env[name];
    values[name] = declared.default;
    if (raw === undefined || raw === '') continue;
    const decoded = decode(name, raw, declared);
    if ('problem' in decoded) problems.add(name, decoded.problem);
    else values[name] = decoded.value;
  }
  return values as Static<S>;
}

/** Reads one schema on its own, throwing its problems together. */
export function loadVariables<S extends TObject>(schema: S, env: NodeJS.ProcessEnv): Static<S> {
  return collectConfig((problems) => readVariables(schema, env, problems));
}

/** One variable of a schema, read on its own (a launcher's port, a gateway's shutdown timeout). */
export function loadVariable<S extends TObject, K extends keyof Static<S> & string>(schema: S, name: K, env: NodeJS.ProcessEnv): Static<S>[K] {
  const one = loadVariables(Type.Object({ [name]: schema.properties[name] }), env) as Record<string, unknown>;
  return one[name] as Static<S>[K];
}

/** An integer between `minimum` and `maximum` that only a rule knows (a bound set by another variable). */
export function checkBetween(problems: ConfigProblems, variable: string, value: number, minimum: number, maximum: number): void {
  if (value < minimum || value > maximum) problems.add(variable, `must be an integer from ${minimum} to ${maximum}, got "${value}"`);
}

