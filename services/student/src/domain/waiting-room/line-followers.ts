/** Where a follower of the line is told its figures (an event stream, in the HTTP entry point). */
export interface LineSink<L> {
  send(line: L): void;
  /** Ends the stream: the service is draining, or the follower has followed for `maxFollowMs`. */
  end(): void;
}

export interface LineFollowersOptions<L> {
  /** The line's figures, the same for everyone (read at most once a second per replica). */
  read: () => Promise<L>;
  /** How many followers one replica serves (the gateways: one each). */
  max: number;
  everyMs: number;
  /** A follower is ended after this long, and comes back (to whichever replica is ready). */
  maxFollowMs: number;
  onError: (err: unknown) => void;
}

/**
 * The followers of the line (docs/waiting-room.md, "The line's stream"): each gateway follows it once and passes it on
 * to every waiting page it holds. Every follower is told the line at once and then every `everyMs`, from one read for
 * them all; the timer runs only while someone follows. A read that fails tells nobody anything; the next one tries
 * again.
 */
export function lineFollowers<L>(options: LineFollowersOptions<L>) {
  const sinks = new Map<LineSink<L>, number>();
  let timer: ReturnType<typeof setInterval> | undefined;

  const drop = (sink: LineSink<L>) => {
    sinks.delete(sink);
    if (sinks.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  const tell = async (targets: Array<LineSink<L>>) => {
    let line: L;
    try {
      line = await options.read();
    } catch (err) {
      options.onError(err);
      return;
    }
    for (const sink of targets) if (sinks.has(sink)) sink.send(line);
  };
  const pass = () => {
    const now = Date.now();
    for (const [sink, since] of sinks) {
      if (now - since < options.maxFollowMs) continue;
      drop(sink);
      sink.end();
    }
    if (sinks.size > 0) void tell([...sinks.keys()]);
  };

  return {
    /** Starts telling `sink` the line; null when this replica already serves its most followers. */
    follow(sink: LineSink<L>): { close(): void } | null {
      if (sinks.size >= options.max) return null;
      sinks.set(sink, Date.now());
      timer ??= setInterval(pass, options.everyMs);
      void tell([sink]);
      return { close: () => drop(sink) };
    },
    size: () => sinks.size,
    /** Ends every stream: the service is draining. */
    endAll() {
      for (const sink of [...sinks.keys()]) {
        drop(sink);
        sink.end();
      }
    },
  };
}
