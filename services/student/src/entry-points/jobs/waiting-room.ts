import { every } from '@readiness/kit/runtime';
import type { WaitingRoom } from '../../domain/waiting-room';

/** Its safety net only: the waiting room wakes the job at an arrival and asks again each second while needed. */
const IDLE_CHECK_MS = 60_000;

/**
 * Each replica's look at the line, once a second while students arrive or wait (its pressure reported, the rate
 * adjusted, the other services told); nothing at all while the product is quiet.
 */
export const waitingRoomJob = (room: WaitingRoom) =>
  every('waiting-room', IDLE_CHECK_MS, room.job.look, { nextDue: room.job.nextDue, waker: room.job.waker });
