import { Counter, Histogram, type MetricObjectWithValues, type MetricValueWithName, type Registry } from 'prom-client';

/** Latency buckets, in seconds. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

interface StatusCount {
  readonly status: number;
  count: number;
  /** What the Prometheus counters have already been given. */
  reported: number;
}

/**
 * The answers one route gave to one method, in plain numbers: how many of each status, and
 * the latency histogram. Recording an answer is a few additions; the Prometheus series are
 * brought up to date when scraped (`answerMetrics`). prom-client's own `inc` and `observe`
 * hash the label set and allocate on every call, which was a tenth of a small answer's time.
 */
export class RouteAnswers {
  readonly statuses: StatusCount[] = [];
  /** Answers per bucket (not cumulative); the last one is +Inf. */
  readonly buckets = new Array<number>(LATENCY_BUCKETS.length + 1).fill(0);
  sum = 0;
  count = 0;

  constructor(
    readonly method: string,
    readonly route: string,
  ) {}

  record(status: number, seconds: number): void {
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket += 1;
    this.buckets[bucket]! += 1;
    this.sum += seconds;
    this.count += 1;
    for (const entry of this.statuses) {
      if (entry.status === status) {
        entry.count += 1;
        return;
      }
    }
    this.statuses.push({ status, count: 1, reported: 0 });
  }
}

/** Every route's answers, one entry per route pattern and method. */
export class AnswerBook {
  readonly #entries = new Map<string, RouteAnswers>();

  for(method: string, route: string): RouteAnswers {
    const key = `${method} ${route}`;
    let entry = this.#entries.get(key);
    if (!entry) {
      entry = new RouteAnswers(method, route);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  entries(): IterableIterator<RouteAnswers> {
    return this.#entries.values();
  }
}

const LATENCY_NAME = 'http_request_duration_seconds';
const LATENCY_HELP = 'Time to answer, by route pattern';

/** The latency histogram, read from the book when scraped; nothing is observed into it directly. */
class RouteLatency extends Histogram<'method' | 'route'> {
  constructor(
    private readonly book: AnswerBook,
    registry: Registry,
  ) {
    super({ name: LATENCY_NAME, help: LATENCY_HELP, labelNames: ['method', 'route'], buckets: [...LATENCY_BUCKETS], registers: [registry] });
  }

  /** The series as prom-client's own histogram gives them (what `Registry` formats and merges). */
  override async get(): Promise<MetricObjectWithValues<MetricValueWithName<'method' | 'route' | 'le'>>> {
    const values: MetricValueWithName<'method' | 'route' | 'le'>[] = [];
    for (const entry of this.book.entries()) {
      const labels = { method: entry.method, route: entry.route };
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((le, i) => {
        cumulative += entry.buckets[i]!;
        values.push({ metricName: `${LATENCY_NAME}_bucket`, labels: { le, ...labels }, value: cumulative });
      });
      values.push({ metricName: `${LATENCY_NAME}_bucket`, labels: { le: '+Inf', ...labels }, value: entry.count });
      values.push({ metricName: `${LATENCY_NAME}_sum`, labels, value: entry.sum });
      values.push({ metricName: `${LATENCY_NAME}_count`, labels, value: entry.count });
    }
    // prom-client sets these on every metric; its typings do not declare them on the class.
    const { type, aggregator } = this as unknown as Pick<MetricObjectWithValues<never>, 'type' | 'aggregator'>;
    return { name: LATENCY_NAME, help: LATENCY_HELP, type, aggregator, collect: () => undefined, values };
  }

  /** What `Registry` reads for the text format. */
  getForPromString() {
    return this.get();
  }
}

/**
 * The request series: `http_requests_total` and `http_errors_total` (by method, route
 * pattern and status) and `http_request_duration_seconds` (by method and route pattern),
 * all read from `book` at each scrape. The counters stay prom-client counters, so what is
 * counted outside the book (a request its client left) adds to the same series.
 */
export function answerMetrics(book: AnswerBook, registry: Registry) {
  // Whichever counter is read first brings both up to date.
  const sync = () => {
    for (const entry of book.entries()) {
      for (const count of entry.statuses) {
        if (count.count === count.reported) continue;
        const delta = count.count - count.reported;
        count.reported = count.count;
        const labels = { method: entry.method, route: entry.route, status: String(count.status) };
        requests.inc(labels, delta);
        if (count.status >= 400) errors.inc({ ...labels, class: count.status >= 500 ? 'server' : 'client' }, delta);
      }
    }
  };
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
    collect: sync,
  });
  const errors = new Counter({
    name: 'http_errors_total',
    help: 'Answers with a 4xx (client) or 5xx (server) status',
    labelNames: ['method', 'route', 'status', 'class'] as const,
    registers: [registry],
    collect: sync,
  });
  new RouteLatency(book, registry);
  return { requests, errors };
}
