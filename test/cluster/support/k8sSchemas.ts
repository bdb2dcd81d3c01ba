/**
 * Validates rendered Kubernetes objects without a cluster:
 * - built-in kinds and the KEDA / Prometheus Operator CRDs against their OpenAPI schemas, as compiled
 *   into kubernetes-models (types, required fields, enums, formats);
 * - built-in kinds also for unknown fields (which a real API server refuses with strict field
 *   validation), walking the field lists of @kubernetes/client-node's generated models;
 * - Strimzi and CloudNativePG objects against operatorSchemas.ts (the fields this chart uses).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import { REPO_ROOT } from '../../../deploy/workspaceServices.ts';
import { OPERATOR_SCHEMAS } from './operatorSchemas.ts';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: any;
}

const CLIENT_MODELS = path.join(REPO_ROOT, 'node_modules/@kubernetes/client-node/dist/gen/models');

/** Where kubernetes-models keeps the class of an apiVersion/kind. */
function modelModule(apiVersion: string, kind: string): string | undefined {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  if (group === 'keda.sh') return `@kubernetes-models/keda/keda.sh/${version}/${kind}`;
  if (group === 'monitoring.coreos.com') return `@kubernetes-models/prometheus-operator/monitoring.coreos.com/${version}/${kind}`;
  if (!group || !group.includes('.') || group.endsWith('.k8s.io')) return `kubernetes-models/${group ? `${group}/` : ''}${version}/${kind}`;
  return undefined;
}

const isBuiltIn = (apiVersion: string) => {
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  return !group || !group.includes('.') || group.endsWith('.k8s.io');
};

type AttributeMap = { baseName: string; type: string }[];
const attributeMaps = new Map<string, AttributeMap | null>();

async function attributesOf(typeName: string): Promise<AttributeMap | null> {
  if (!attributeMaps.has(typeName)) {
    const file = path.join(CLIENT_MODELS, `${typeName}.js`);
    if (!fs.existsSync(file)) attributeMaps.set(typeName, null);
    else {
      const module = await import(pathToFileURL(file).href);
      attributeMaps.set(typeName, module[typeName]?.getAttributeTypeMap?.() ?? null);
    }
  }
  return attributeMaps.get(typeName)!;
}

/** Fields that no version of the type has, e.g. a typo (`readinesProbe`). */
async function unknownFields(value: unknown, typeName: string, at: string, errors: string[]): Promise<void> {
  if (value === null || value === undefined) return;
  const list = typeName.match(/^Array<(.+)>$/);
  if (list) {
    if (Array.isArray(value)) for (const [i, item] of value.entries()) await unknownFields(item, list[1], `${at}[${i}]`, errors);
    return;
  }
  const map = typeName.match(/^\{ \[key: string\]: (.+); \}$/);
  if (map) {
    if (typeof value === 'object') for (const [k, v] of Object.entries(value as object)) await unknownFields(v, map[1], `${at}.${k}`, errors);
    return;
  }
  if (!/^V\d/.test(typeName) || typeof value !== 'object') return;
  const attributes = await attributesOf(typeName);
  if (!attributes) return;
  const byName = new Map(attributes.map((a) => [a.baseName, a.type]));
  for (const [key, child] of Object.entries(value as object)) {
    const type = byName.get(key);
    if (!type) errors.push(`${at}.${key}: unknown field (not in ${typeName})`);
    else await unknownFields(child, type, `${at}.${key}`, errors);
  }
}

const ajv = new Ajv({ allErrors: true, strict: false });
const operatorValidators = Object.fromEntries(Object.entries(OPERATOR_SCHEMAS).map(([key, schema]) => [key, ajv.compile(schema)]));

/** Problems with one object; empty when valid. */
export async function validateObject(object: K8sObject): Promise<string[]> {
  const where = `${object.kind}/${object.metadata?.name}`;
  const key = `${object.apiVersion}/${object.kind}`;
  const operatorSchema = operatorValidators[key];
  if (operatorSchema) {
    return operatorSchema(object) ? [] : operatorSchema.errors!.map((e) => `${where}${e.instancePath}: ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`);
  }
  const module = modelModule(object.apiVersion, object.kind);
  if (!module) return [`${where}: no schema known for ${key}`];
  let Model: new (data: object) => { validate(): void };
  try {
    Model = (await import(module))[object.kind];
  } catch {
    return [`${where}: no schema known for ${key}`];
  }
  const errors: string[] = [];
  try {
    new Model(object).validate();
  } catch (err) {
    errors.push(`${where}: ${(err as Error).message}`);
  }
  if (isBuiltIn(object.apiVersion)) {
    const version = object.apiVersion.split('/').pop()!;
    const typeName = `${version[0].toUpperCase()}${version.slice(1)}${object.kind}`;
    const { apiVersion: _a, kind: _k, ...rest } = object;
    await unknownFields(rest, typeName, where, errors);
  }
  return errors;
}
