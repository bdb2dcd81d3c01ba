/**
 * Schemas for the operator objects the chart renders (CloudNativePG, Strimzi), written from the
 * operators' CRD references for the fields this chart uses: a field outside them, a wrong type or a
 * bad enum fails, so a typo cannot slip into the chart. Extend a schema when the chart uses a new field.
 * (No npm package ships these CRDs' schemas; the built-in kinds and KEDA / Prometheus Operator CRDs
 * are checked against their full schemas in k8sSchemas.ts.)
 */
type Schema = Record<string, unknown>;

const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({ type: 'object', additionalProperties: false, properties, required });
const string: Schema = { type: 'string', minLength: 1 };
const integer = (minimum = 0): Schema => ({ type: 'integer', minimum });
const stringMap: Schema = { type: 'object', additionalProperties: { type: 'string' } };
const quantity: Schema = { anyOf: [{ type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$' }, { type: 'number' }] };
const resources = object({ requests: { type: 'object', additionalProperties: quantity }, limits: { type: 'object', additionalProperties: quantity } });

const metadata = (requiredLabels: string[] = []): Schema => ({
  type: 'object',
  properties: { name: string, labels: { ...stringMap, required: requiredLabels }, annotations: stringMap },
  required: ['name'],
});

const kind = (apiVersion: string, name: string, spec: Schema, requiredLabels: string[] = []): Schema => object({
  apiVersion: { const: apiVersion },
  kind: { const: name },
  metadata: metadata(requiredLabels),
  spec,
}, ['apiVersion', 'kind', 'metadata', 'spec']);

/** postgresql.cnpg.io/v1 Cluster (CloudNativePG 1.25+). */
const cnpgCluster = kind('postgresql.cnpg.io/v1', 'Cluster', object({
  instances: integer(1),
  imageName: string,
  primaryUpdateStrategy: { enum: ['unsupervised', 'supervised'] },
  bootstrap: object({ initdb: object({ database: string, owner: string }, ['database', 'owner']) }),
  storage: object({ size: { type: 'string', pattern: '^[0-9]+(Ki|Mi|Gi|Ti)$' }, storageClass: string }, ['size']),
  resources,
  affinity: object({ podAntiAffinityType: { enum: ['preferred', 'required'] }, topologyKey: string }),
}, ['instances', 'storage']));

/** kafka.strimzi.io/v1beta2 (Strimzi 0.45+, KRaft with node pools). */
const listener = object({
  name: { type: 'string', pattern: '^[a-z0-9]{1,11}$' },
  port: integer(9092),
  type: { enum: ['internal', 'route', 'loadbalancer', 'nodeport', 'ingress', 'cluster-ip'] },
  tls: { type: 'boolean' },
  configuration: object({
    bootstrap: object({ nodePort: integer(30000) }),
    brokers: { type: 'array', items: object({ broker: integer(), nodePort: integer(30000), advertisedHost: string, advertisedPort: integer(1) }, ['broker']) },
  }),
}, ['name', 'port', 'type', 'tls']);

const strimziKafka = kind('kafka.strimzi.io/v1beta2', 'Kafka', object({
  kafka: object({
    version: string,
    listeners: { type: 'array', minItems: 1, items: listener },
    config: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
  }, ['listeners']),
  entityOperator: object({ topicOperator: object({}), userOperator: object({}) }),
}, ['kafka']));

const strimziNodePool = kind('kafka.strimzi.io/v1beta2', 'KafkaNodePool', object({
  replicas: integer(1),
  roles: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: ['controller', 'broker'] } },
  storage: object({
    type: { enum: ['jbod', 'persistent-claim', 'ephemeral'] },
    volumes: {
      type: 'array',
      items: object({ id: integer(), type: { enum: ['persistent-claim', 'ephemeral'] }, size: string, class: string, deleteClaim: { type: 'boolean' }, kraftMetadata: { enum: ['shared'] } }, ['id', 'type']),
    },
  }, ['type']),
  resources,
}, ['replicas', 'roles', 'storage']), ['strimzi.io/cluster']);

const strimziTopic = kind('kafka.strimzi.io/v1beta2', 'KafkaTopic', object({
  topicName: { type: 'string', pattern: '^[a-zA-Z0-9._-]+$' },
  partitions: integer(1),
  replicas: integer(1),
  config: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
}, ['partitions', 'replicas']), ['strimzi.io/cluster']);

export const OPERATOR_SCHEMAS: Record<string, Schema> = {
  'postgresql.cnpg.io/v1/Cluster': cnpgCluster,
  'kafka.strimzi.io/v1beta2/Kafka': strimziKafka,
  'kafka.strimzi.io/v1beta2/KafkaNodePool': strimziNodePool,
  'kafka.strimzi.io/v1beta2/KafkaTopic': strimziTopic,
};
