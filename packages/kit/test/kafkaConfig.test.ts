import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadKitConfig } from '../src/config/kitConfig.ts';
import { readKafkaConfig } from '../src/config/kafkaConfig.ts';

describe('Kafka settings from the environment', () => {
  it('means the in-process bus without KAFKA_BROKERS', () => {
    expect(readKafkaConfig({}, 'contact')).toBeUndefined();
    expect(readKafkaConfig({ KAFKA_BROKERS: ' , ' }, 'contact')).toBeUndefined();
  });

  it('reads brokers, a client id per service and the defaults', () => {
    expect(readKafkaConfig({ KAFKA_BROKERS: 'kafka-0.kafka:9092, kafka-1.kafka:9092' }, 'contact')).toEqual({
      brokers: ['kafka-0.kafka:9092', 'kafka-1.kafka:9092'],
      clientId: 'leadforge-contact',
      partitions: 6,
      topicPrefix: '',
      sasl: undefined,
      ssl: undefined,
      sessionTimeoutMs: 30_000,
      heartbeatIntervalMs: 3_000,
      consumerConcurrency: 2,
      publishTimeoutMs: 15_000,
    });
    expect(readKafkaConfig({ KAFKA_BROKERS: '127.0.0.1:9092', KAFKA_CLIENT_ID: 'acme', KAFKA_TOPIC_PREFIX: 'staging.' }, 'billing'))
      .toMatchObject({ clientId: 'acme-billing', topicPrefix: 'staging.' });
    // One process, one bus for all its services: no service in the name.
    expect(readKafkaConfig({ KAFKA_BROKERS: '127.0.0.1:9092' })?.clientId).toBe('leadforge');
  });

  it('is parsed in one place: the kit config reads the same brokers', () => {
    expect(loadKitConfig('contact', { KAFKA_BROKERS: 'a:1,b:2' }).kafkaBrokers).toEqual(['a:1', 'b:2']);
    expect(() => loadKitConfig('contact', { KAFKA_BROKERS: 'http://a:1' })).toThrow('Configuration error: KAFKA_BROKERS has a bad entry "http://a:1"');
  });

  it('refuses bad values, naming the variable', () => {
    const brokers = { KAFKA_BROKERS: 'kafka:9092' };
    expect(() => readKafkaConfig({ ...brokers, KAFKA_TOPIC_PARTITIONS: 'six' })).toThrow('KAFKA_TOPIC_PARTITIONS must be an integer from 1 to 1000, got "six"');
    expect(() => readKafkaConfig({ ...brokers, KAFKA_TOPIC_PARTITIONS: '0' })).toThrow('KAFKA_TOPIC_PARTITIONS');
    expect(() => readKafkaConfig({ ...brokers, KAFKA_TOPIC_PREFIX: 'a b' })).toThrow('KAFKA_TOPIC_PREFIX has a bad value');
    expect(() => readKafkaConfig({ ...brokers, KAFKA_SESSION_TIMEOUT_MS: '9000', KAFKA_HEARTBEAT_INTERVAL_MS: '5000' })).toThrow('KAFKA_HEARTBEAT_INTERVAL_MS must be an integer from 100 to 3000');
    expect(() => readKafkaConfig({ ...brokers, KAFKA_SASL_MECHANISM: 'kerberos' })).toThrow('KAFKA_SASL_MECHANISM must be one of plain, scram-sha-256, scram-sha-512');
    expect(() => readKafkaConfig({ ...brokers, KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'svc' })).toThrow('KAFKA_SASL_PASSWORD is required');
    expect(() => readKafkaConfig({ ...brokers, KAFKA_SSL_CA_FILE: '/nonexistent/ca.pem' })).toThrow('KAFKA_SSL_CA_FILE cannot be read');
    expect(() => readKafkaConfig({ ...brokers, KAFKA_SSL: 'false', KAFKA_SSL_CA_FILE: '/etc/hosts' })).toThrow('KAFKA_SSL_CA_FILE is set while KAFKA_SSL=false');
  });

  it('reads SASL and TLS settings', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-ca-'));
    const caFile = path.join(dir, 'ca.pem');
    fs.writeFileSync(caFile, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    try {
      expect(readKafkaConfig({
        KAFKA_BROKERS: 'kafka:9093',
        KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
        KAFKA_SASL_USERNAME: 'leadforge',
        KAFKA_SASL_PASSWORD: 's3cret',
        KAFKA_SSL_CA_FILE: caFile,
      })).toMatchObject({
        sasl: { mechanism: 'scram-sha-512', username: 'leadforge', password: 's3cret' },
        ssl: { ca: fs.readFileSync(caFile, 'utf8') },
      });
      expect(readKafkaConfig({ KAFKA_BROKERS: 'kafka:9093', KAFKA_SSL: 'true' })?.ssl).toEqual({});
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
