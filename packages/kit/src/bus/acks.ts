import type { Channel, ConsumeMessage } from 'amqplib';
import type { Logger } from '../logger';

interface Done {
  msg: ConsumeMessage;
  /** Counts the message in the bus's metrics once its ack is written. */
  onAcked: () => void;
}

/**
 * The acknowledgements of one consumer channel, gathered for a short window and sent in as few `basic.ack`
 * frames as the delivery tags allow: the broker spends less per message on one frame with `multiple` than on one
 * frame per message, which counts at the enrolment peak.
 *
 * Handlers run concurrently up to the prefetch, so they finish out of tag order. A multiple ack settles every
 * unacknowledged delivery up to its tag, so it only goes as far as the highest finished tag below the lowest
 * delivery still unsettled (its handler running, or its retry or dead letter being published): a message that
 * might yet be nacked or lost with a crash is never covered. Finished deliveries above an unsettled one are acked
 * singly at the same flush rather than held for the next: each holds a prefetch slot until acked, and a slow
 * handler holding the lowest tag would otherwise stall the consumer for as long as it runs. So no ack waits longer
 * than the window, however slow a handler is.
 *
 * Nacks are sent at once, singly: a nacked delivery is no longer unacknowledged on the broker, so a later multiple
 * ack passes over it. A closed channel drops what it had gathered: the broker redelivers those messages and the
 * handlers de-duplicate (`handleOnce`).
 */
export class ChannelAcks {
  /** Delivery tags received and neither acked nor nacked yet, nor waiting in `done`. */
  private readonly unsettled = new Set<number>();
  private done: Done[] = [];
  private timer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    readonly channel: Channel,
    private readonly opts: {
      /** 0: every ack at once, singly. */
      windowMs: number;
      /** The channel's prefetch: with every slot finished nothing more comes, so the window is not waited out. */
      prefetch: number;
      log: Logger;
      queue: string;
    },
  ) {
    channel.on('close', () => {
      this.closed = true;
      this.drop(this.takeDone());
    });
  }

  /** A delivery arrived: until it is settled no multiple ack may cover its tag. */
  received(msg: ConsumeMessage): void {
    this.unsettled.add(msg.fields.deliveryTag);
  }

  /** The delivery is finished with: acknowledged within the window, and then `onAcked` runs. */
  ack(msg: ConsumeMessage, onAcked: () => void): void {
    this.unsettled.delete(msg.fields.deliveryTag);
    if (this.closed) this.drop([{ msg, onAcked }]);
    else if (this.opts.windowMs <= 0) this.send([{ msg, multiple: false, covers: [{ msg, onAcked }] }]);
    else {
      this.done.push({ msg, onAcked });
      if (this.opts.prefetch > 0 && this.done.length >= this.opts.prefetch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.opts.windowMs);
    }
  }

  /** Rejects the delivery at once; false when its channel is gone (the broker redelivers it). */
  nack(msg: ConsumeMessage, requeue: boolean): boolean {
    this.unsettled.delete(msg.fields.deliveryTag);
    try {
      this.channel.nack(msg, false, requeue);
      return true;
    } catch {
      return false;
    }
  }

  /** Sends every gathered ack now: before a consumer is cancelled or the connection closed. */
  flush(): void {
    const done = this.takeDone();
    if (done.length === 0) return;
    let lowestUnsettled = Infinity;
    for (const tag of this.unsettled) lowestUnsettled = Math.min(lowestUnsettled, tag);
    const below = done.filter((d) => d.msg.fields.deliveryTag < lowestUnsettled);
    const above = done.filter((d) => d.msg.fields.deliveryTag > lowestUnsettled);
    const highest = below.reduce<Done | undefined>(
      (h, d) => (h && h.msg.fields.deliveryTag > d.msg.fields.deliveryTag ? h : d),
      undefined,
    );
    this.send([
      ...(highest ? [{ msg: highest.msg, multiple: below.length > 1, covers: below }] : []),
      ...above.map((d) => ({ msg: d.msg, multiple: false, covers: [d] })),
    ]);
  }

  private takeDone(): Done[] {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const done = this.done;
    this.done = [];
    return done;
  }

  private send(frames: Array<{ msg: ConsumeMessage; multiple: boolean; covers: Done[] }>): void {
    for (const [i, frame] of frames.entries()) {
      try {
        this.channel.ack(frame.msg, frame.multiple);
      } catch (err) {
        this.closed = true;
        this.drop(
          frames.slice(i).flatMap((f) => f.covers),
          err,
        );
        return;
      }
      for (const d of frame.covers) d.onAcked();
    }
  }

  private drop(done: Done[], err?: unknown): void {
    if (done.length === 0) return;
    this.opts.log.warn(
      { err, queue: this.opts.queue, messages: done.length },
      'cannot ack: channel closed; the broker will redeliver',
    );
  }
}
