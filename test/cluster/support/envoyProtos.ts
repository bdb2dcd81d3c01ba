/**
 * Checks an Envoy config against Envoy's own API protos (shipped in @grpc/grpc-js-xds, loaded with
 * protobufjs): every field exists in its message, every `@type` resolves to a loaded message, every
 * enum value exists, oneofs hold one member, fields marked required by protoc-gen-validate are set,
 * and no deprecated field is used.
 */
import fs from 'node:fs';
import path from 'node:path';
import protobuf from 'protobufjs';
import { REPO_ROOT } from '../../../deploy/workspaceServices.ts';

const DEPS = path.join(REPO_ROOT, 'node_modules/@grpc/grpc-js-xds/deps');
const PROTOBUFJS = path.join(REPO_ROOT, 'node_modules/protobufjs');
const INCLUDE_DIRS = ['envoy-api', 'xds', 'protoc-gen-validate', 'googleapis'].map((dir) => path.join(DEPS, dir));

/** The messages an Envoy bootstrap of ours can reference through `@type`. */
const ENTRY_PROTOS = [
  'envoy/config/bootstrap/v3/bootstrap.proto',
  'envoy/extensions/filters/network/http_connection_manager/v3/http_connection_manager.proto',
  'envoy/extensions/filters/http/router/v3/router.proto',
  'envoy/extensions/filters/http/jwt_authn/v3/config.proto',
  'envoy/extensions/filters/http/rbac/v3/rbac.proto',
  'envoy/extensions/filters/http/ext_authz/v3/ext_authz.proto',
  'envoy/extensions/filters/http/local_ratelimit/v3/local_rate_limit.proto',
  'envoy/extensions/filters/http/buffer/v3/buffer.proto',
  'envoy/extensions/filters/http/health_check/v3/health_check.proto',
  'envoy/extensions/access_loggers/stream/v3/stream.proto',
  'envoy/extensions/upstreams/http/v3/http_protocol_options.proto',
];

export async function loadEnvoyProtos(): Promise<protobuf.Root> {
  const root = new protobuf.Root();
  root.resolvePath = (origin, target) => {
    // protobufjs bundles the well-known types; descriptor.proto is a file in its package.
    if (target.startsWith('google/protobuf/')) {
      const bundled = path.join(PROTOBUFJS, target);
      return fs.existsSync(bundled) ? bundled : target;
    }
    for (const dir of INCLUDE_DIRS) {
      const candidate = path.join(dir, target);
      if (fs.existsSync(candidate)) return candidate;
    }
    return protobuf.util.path.resolve(origin, target);
  };
  await root.load(ENTRY_PROTOS, { keepCase: true });
  root.resolveAll();
  return root;
}

const INTEGER = new Set(['int32', 'uint32', 'sint32', 'fixed32', 'sfixed32', 'int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const WRAPPERS: Record<string, string> = {
  '.google.protobuf.BoolValue': 'bool', '.google.protobuf.StringValue': 'string', '.google.protobuf.BytesValue': 'bytes',
  '.google.protobuf.UInt32Value': 'uint32', '.google.protobuf.Int32Value': 'int32', '.google.protobuf.UInt64Value': 'uint64',
  '.google.protobuf.Int64Value': 'int64', '.google.protobuf.DoubleValue': 'double', '.google.protobuf.FloatValue': 'float',
};

function scalarProblem(kind: string, value: unknown): string | undefined {
  if (kind === 'string' || kind === 'bytes') return typeof value === 'string' ? undefined : `expected a ${kind} string`;
  if (kind === 'bool') return typeof value === 'boolean' ? undefined : 'expected true or false';
  if (kind === 'double' || kind === 'float') return typeof value === 'number' ? undefined : 'expected a number';
  if (INTEGER.has(kind)) {
    const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n)) return `expected an integer (${kind})`;
    if (kind.startsWith('u') && n < 0) return `expected a non-negative integer (${kind})`;
    return undefined;
  }
  return `unknown scalar type ${kind}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function validateEnvoy(root: protobuf.Root, typeName: string, value: unknown): string[] {
  const errors: string[] = [];

  function checkValue(field: protobuf.Field, value: unknown, at: string) {
    const resolved = field.resolvedType;
    if (resolved instanceof protobuf.Enum) {
      const ok = typeof value === 'string' ? value in resolved.values : typeof value === 'number' && Object.values(resolved.values).includes(value);
      if (!ok) errors.push(`${at}: "${String(value)}" is not a value of enum ${resolved.fullName}`);
      return;
    }
    if (resolved instanceof protobuf.Type) return checkMessage(resolved, value, at);
    const problem = scalarProblem(field.type, value);
    if (problem) errors.push(`${at}: ${problem}`);
  }

  function checkMessage(type: protobuf.Type, value: unknown, at: string) {
    const name = type.fullName;
    if (name === '.google.protobuf.Any') {
      if (!isObject(value) || typeof value['@type'] !== 'string') return void errors.push(`${at}: an Any needs an "@type"`);
      const url = value['@type'];
      const target = url.replace(/^type\.googleapis\.com\//, '');
      let inner: protobuf.Type;
      try {
        inner = root.lookupType(target);
      } catch {
        return void errors.push(`${at}: @type ${url} does not resolve to a loaded Envoy message`);
      }
      const { '@type': _type, ...rest } = value;
      return checkMessage(inner, rest, `${at}<${target}>`);
    }
    if (name === '.google.protobuf.Duration') {
      if (typeof value !== 'string' || !/^-?\d+(\.\d{1,9})?s$/.test(value)) errors.push(`${at}: a Duration is written like "1.5s", got ${JSON.stringify(value)}`);
      return;
    }
    if (name === '.google.protobuf.Timestamp') {
      if (typeof value !== 'string') errors.push(`${at}: a Timestamp is an RFC 3339 string`);
      return;
    }
    if (name === '.google.protobuf.Struct') {
      if (!isObject(value)) errors.push(`${at}: a Struct is an object`);
      return;
    }
    if (name === '.google.protobuf.Value' || name === '.google.protobuf.ListValue') return;
    if (WRAPPERS[name]) {
      const problem = scalarProblem(WRAPPERS[name], value);
      if (problem) errors.push(`${at}: ${problem}`);
      return;
    }
    if (!isObject(value)) return void errors.push(`${at}: expected a ${name.slice(1)} object`);

    const byJsonName = new Map(type.fieldsArray.map((f) => [f.options?.json_name as string | undefined ?? protobuf.util.camelCase(f.name), f]));
    const seen = new Set<protobuf.Field>();
    for (const [key, child] of Object.entries(value)) {
      const field = type.fields[key] ?? byJsonName.get(key);
      if (!field) {
        errors.push(`${at}.${key}: no such field in ${name.slice(1)}`);
        continue;
      }
      seen.add(field);
      if (field.options?.deprecated) errors.push(`${at}.${key}: deprecated in ${name.slice(1)}`);
      const childAt = `${at}.${key}`;
      if (field instanceof protobuf.MapField) {
        if (!isObject(child)) errors.push(`${childAt}: expected a map`);
        else for (const [k, v] of Object.entries(child)) checkValue(field, v, `${childAt}[${k}]`);
      } else if (field.repeated) {
        if (!Array.isArray(child)) errors.push(`${childAt}: expected a list`);
        else child.forEach((item, i) => checkValue(field, item, `${childAt}[${i}]`));
      } else {
        checkValue(field, child, childAt);
      }
    }
    for (const oneof of type.oneofsArray) {
      const set = oneof.fieldsArray.filter((f) => seen.has(f));
      if (set.length > 1) errors.push(`${at}: only one of ${set.map((f) => f.name).join(', ')} may be set (oneof ${oneof.name})`);
      if (!set.length && oneof.options?.['(validate.required)']) errors.push(`${at}: one of ${oneof.fieldsArray.map((f) => f.name).join(', ')} is required`);
    }
    for (const field of type.fieldsArray) {
      // A oneof member's own `required` applies only when that member is the one set.
      if (!seen.has(field) && !field.partOf && field.options?.['(validate.rules).message.required']) errors.push(`${at}.${field.name}: required`);
    }
  }

  checkMessage(root.lookupType(typeName), value, typeName.split('.').pop()!);
  return errors;
}
