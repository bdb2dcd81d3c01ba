import { Compile, type Validator } from 'typebox/compile';
import { EVENT_TYPES } from '@leadforge/contracts';

const validators = new Map<string, Validator>();

/** Why `data` does not match the contract schema of `type`, or undefined when it does. */
export function eventDataProblem(type: string, data: unknown): string | undefined {
  if (!Object.hasOwn(EVENT_TYPES, type)) return `unknown event type "${type}"`;
  let validator = validators.get(type);
  if (!validator) validators.set(type, (validator = Compile(EVENT_TYPES[type as keyof typeof EVENT_TYPES].schema)));
  if (validator.Check(data)) return undefined;
  return validator.Errors(data).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
}
