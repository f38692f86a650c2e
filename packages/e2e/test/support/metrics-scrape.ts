import parsePrometheusTextFormat, { type PrometheusFamily } from "parse-prometheus-text-format";

/** Every family of one or more /metrics endpoints (a cluster's processes), parsed. */
export class Scrape {
  private constructor(private readonly families: PrometheusFamily[]) {}

  static async of(urls: readonly string[]): Promise<Scrape> {
    const families: PrometheusFamily[] = [];
    for (const url of urls) {
      const response = await fetch(url);
      if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`);
      const type = response.headers.get("content-type") ?? "";
      if (!type.startsWith("text/plain")) throw new Error(`GET ${url}: content-type ${type}`);
      families.push(...parsePrometheusTextFormat(await response.text()));
    }
    return new Scrape(families);
  }

  has(name: string): boolean {
    return this.families.some((family) => family.name === name);
  }

  /**
   * The sum over processes of the samples of `name` whose labels include `labels`. Counters and
   * gauges only: the parser folds a labelled histogram's series into one.
   */
  value(name: string, labels: Record<string, string | RegExp> = {}): number {
    let total = 0;
    for (const family of this.families) {
      if (family.name !== name) continue;
      for (const sample of family.metrics) {
        const matches = Object.entries(labels).every(([key, want]) => {
          const got = sample.labels?.[key];
          return got !== undefined && (typeof want === "string" ? got === want : want.test(got));
        });
        if (matches) total += Number(sample.value ?? 0);
      }
    }
    return total;
  }

  /** Label sets of `name`'s samples. */
  series(name: string): Array<Record<string, string>> {
    return this.families
      .filter((family) => family.name === name)
      .flatMap((family) => family.metrics.map((sample) => sample.labels ?? {}));
  }
}
