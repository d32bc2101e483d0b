import { useEffect, useState } from 'react';
import { useGetInviteDeliveriesQuery } from '../api/students-api';
import type { InviteDelivery } from '../api/types';

const DELIVERY_POLL_MS = 5000;

/**
 * How the invitation mails of the students shown went, by student id. Mails go out after the invite
 * returns: while one is still queued, the log is asked again every few seconds.
 */
export function useInviteDeliveries(ids: string[]): Map<string, InviteDelivery> {
  const [deliveryPoll, setDeliveryPoll] = useState(0);
  const { data: deliveries = [] } = useGetInviteDeliveriesQuery(ids, {
    skip: ids.length === 0,
    pollingInterval: deliveryPoll,
  });
  const anyQueued = deliveries.some((d) => d.status === 'queued');
  useEffect(() => setDeliveryPoll(anyQueued ? DELIVERY_POLL_MS : 0), [anyQueued]);
  return new Map(deliveries.map((d) => [d.studentId, d]));
}
