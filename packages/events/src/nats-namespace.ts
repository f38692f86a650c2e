import type { ConsumerSpec, StreamSpec } from "./bus.js";

const NAMESPACE_PATTERN = /^[a-z0-9_-]{1,40}$/;

/** Maps the logical names every service uses to the names of one deployment's namespace. */
export class BusNamespace {
  private readonly streamPrefix: string;
  constructor(readonly name: string) {
    if (name !== "" && !NAMESPACE_PATTERN.test(name)) {
      throw new Error(`bus namespace "${name}" must match ${NAMESPACE_PATTERN} (or be empty)`);
    }
    this.streamPrefix = name === "" ? "" : `${name.toUpperCase().replace(/-/g, "_")}_`;
  }
  streamName(name: string): string {
    return this.streamPrefix + name;
  }
  subject(subject: string): string {
    return this.name === "" ? subject : `${this.name}.${subject}`;
  }
  stream(spec: StreamSpec): StreamSpec {
    return { name: this.streamName(spec.name), subjects: spec.subjects.map((s) => this.subject(s)) };
  }
  consumer(spec: ConsumerSpec): ConsumerSpec {
    return {
      ...spec,
      stream: this.stream(spec.stream),
      durable: this.name === "" ? spec.durable : `${this.name}_${spec.durable}`,
      filterSubject: this.subject(spec.filterSubject),
    };
  }
}
