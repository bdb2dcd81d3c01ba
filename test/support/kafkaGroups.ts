import kafkajs from 'kafkajs';

/**
 * The consumer groups on the broker that have not yet committed, on every partition of the topics their
 * members subscribe to, the end of that partition (empty: everything published so far has been handled). A check that
 * nothing more arrives (no late redelivery changes a figure) waits for this first: a message still to
 * come would be one published before it, not yet handled. A group in a rebalance is not caught up; one
 * with no members (an admin read model's former generation) hands nothing to anyone and is left out.
 */
export async function groupsBehind(bootstrap: string): Promise<string[]> {
  const admin = new kafkajs.Kafka({ clientId: 'test-groups-caught-up', brokers: [bootstrap], logLevel: kafkajs.logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const { groups } = await admin.listGroups();
    const { groups: described } = await admin.describeGroups(groups.map((g) => g.groupId));
    const ends = new Map<string, Promise<Array<{ partition: number; high: string }>>>();
    const endsOf = (topic: string) => {
      if (!ends.has(topic)) ends.set(topic, admin.fetchTopicOffsets(topic));
      return ends.get(topic)!;
    };
    const behind: string[] = [];
    for (const group of described) {
      if (group.state === 'Empty' || group.state === 'Dead') continue;
      if (group.state !== 'Stable') {
        behind.push(`${group.groupId} ${group.state}`);
        continue;
      }
      const topics = [...new Set(group.members.flatMap((m) => kafkajs.AssignerProtocol.MemberMetadata.decode(m.memberMetadata)?.topics ?? []))];
      const committed = await admin.fetchOffsets({ groupId: group.groupId, topics });
      for (const { topic, partitions } of committed) {
        const high = new Map((await endsOf(topic)).map((p) => [p.partition, p.high]));
        // -1: nothing committed, which is caught up only on a partition nothing was ever published to.
        for (const p of partitions) {
          if (p.offset !== high.get(p.partition) && !(p.offset === '-1' && high.get(p.partition) === '0')) behind.push(`${group.groupId} ${topic}[${p.partition}] at ${p.offset} of ${high.get(p.partition)}`);
        }
      }
    }
    return behind;
  } finally {
    await admin.disconnect();
  }
}
